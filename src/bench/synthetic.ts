/** Realistic synthetic project memories for the performance benchmark: varied wording, unique details. */
const SERVICES = ["billing", "checkout", "search", "gateway", "auth", "ledger", "inventory", "notifications", "reporting", "catalog", "payments", "shipping"];
const TOOLS = ["Vitest", "Jest", "Playwright", "pnpm", "yarn", "Poetry", "Alembic", "Prettier", "ESLint", "Terraform", "Helm", "Redis", "PostgreSQL", "Kafka"];
const PLACES = ["Fly.io", "Heroku", "AWS ECS", "Kubernetes", "Cloud Run", "a bare-metal box", "Vercel", "Render"];
const PEOPLE = ["Dana", "Lee", "Priya", "Marco", "Olivia", "Noah", "Grace", "Ivan", "Chen", "Sofia"];
const ACTIONS = ["merge to main", "deploy on Fridays", "skip code review", "push directly to release branches", "change the public API", "run migrations by hand"];

function pick<T>(xs: T[], i: number): T {
  return xs[i % xs.length] as T;
}

export interface SyntheticMemory {
  content: string;
  type: "preference" | "fact" | "constraint" | "task_state" | "event";
}

export function syntheticMemory(i: number): SyntheticMemory {
  const svc = pick(SERVICES, i);
  const tool = pick(TOOLS, i * 7 + 3);
  const place = pick(PLACES, i * 3 + 1);
  const who = pick(PEOPLE, i * 5 + 2);
  const n = (i % 97) + 1;
  switch (i % 6) {
    case 0:
      return { content: `The ${svc} service #${n} is deployed to ${place} from the release-${i} branch.`, type: "fact" };
    case 1:
      return { content: `${who} prefers ${tool} for the ${svc} module ${i} tests.`, type: "preference" };
    case 2:
      return { content: `Never ${pick(ACTIONS, i)} in the ${svc} repo without ticket OPS-${i}.`, type: "constraint" };
    case 3:
      return { content: `Migration ${i} of the ${svc} database is at step ${n % 5} of 5.`, type: "task_state" };
    case 4:
      return { content: `Incident ${i}: the ${svc} deploy failed because ${tool} timed out after ${n} seconds.`, type: "event" };
    default:
      return { content: `The ${svc} team keeps config ${i} in services/${svc}/config/settings-${n}.yaml.`, type: "fact" };
  }
}

export function syntheticQuery(i: number): string {
  const svc = pick(SERVICES, i);
  switch (i % 5) {
    case 0:
      return `Where is the ${svc} service deployed?`;
    case 1:
      return `Which test framework does the ${svc} module use?`;
    case 2:
      return `What must I never do in the ${svc} repo?`;
    case 3:
      return `Why did the ${svc} deploy fail?`;
    default:
      return `Where does the ${svc} team keep its config?`;
  }
}

/**
 * Questions as people ask them of a project memory: a third plain (syntheticQuery), a third naming a
 * person, a third naming a time, so every retriever of recall (vector, full text, entity, temporal) is
 * in the timed path.
 */
export function syntheticMixedQuery(i: number): string {
  const svc = pick(SERVICES, i);
  switch (i % 3) {
    case 0:
      return syntheticQuery(i);
    case 1:
      return `Which test tool does ${pick(PEOPLE, i * 5 + 2)} prefer for the ${svc} module?`;
    default:
      return `Why did the ${svc} deploy fail last week?`;
  }
}
