import { z } from "zod";
import { ScopeSchema } from "../../core/model/memory.js";
import { buildProfile } from "../../core/ops/profile.js";
import { one, parseQuery } from "../query.js";
import type { Route } from "../router.js";

const ProfileQuery = z.object({ scope: ScopeSchema });

/** The short markdown profile of a project (what the editor's auto-recall instructions file carries). */
export const profileRoutes: Route[] = [
  {
    method: "GET",
    path: "/profile",
    handler: async ({ engine, query }) => {
      const q = parseQuery(ProfileQuery, { scope: one(query, "scope") });
      return { text: await buildProfile(engine, q.scope), contentType: "text/markdown; charset=utf-8" };
    },
  },
];
