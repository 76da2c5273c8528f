/**
 * `p`'s value if it settles within `ms`, else "late" (a rejection passes through). The timer is
 * cleared either way, so a quick answer leaves nothing pending.
 */
export async function within<T>(p: Promise<T>, ms: number): Promise<T | "late"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), ms);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}
