// The official @gitbook/api client listing an organization's spaces, for bench_client.py.
// A worker: one JSON command per stdin line ({"org", "limit"}); for each, one client (the same
// for every command, as the Python listers) lists every page, keeping every item, and one JSON
// line answers {"ms", "cpuMs", "count"}: the listing's time and the process's CPU time,
// measured inside node (no process start).
// GITBOOK_JS_DIR names the folder whose node_modules holds @gitbook/api (tests/js).
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { pathToFileURL } from "node:url";

const pkgDir = path.join(process.env.GITBOOK_JS_DIR, "node_modules", "@gitbook", "api");
const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8"));
const { GitBookAPI } = await import(pathToFileURL(path.join(pkgDir, pkg.module)).href);

async function listAll(api, org, limit) {
  const items = [];
  let page;
  do {
    const query = page ? { limit, page } : { limit };
    const { data } = await api.orgs.listSpacesInOrganizationById(org, query);
    items.push(...data.items);
    page = data.next?.page;
  } while (page);
  return items.length;
}

const api = new GitBookAPI({
  endpoint: process.env.GITBOOK_ENDPOINT,
  authToken: process.env.GITBOOK_TOKEN,
});

for await (const line of readline.createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { org, limit } = JSON.parse(line);
  const cpu = process.cpuUsage();
  const start = performance.now();
  const count = await listAll(api, org, limit);
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  process.stdout.write(JSON.stringify({ ms, cpuMs, count }) + "\n");
}
