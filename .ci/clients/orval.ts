// A small program through the functions orval generates from the served
// document (default options: axios, which sends an array as
// status[]=open&status[]=partial), run against a real `dealctl serve
// --demo` as both sides. Arguments: base URL, the owning side's key, the
// counterparty's key. Exits non-zero on the first answer that is not what
// the document promises.
import axios, { type AxiosRequestConfig } from "axios";
import {
  createDownloadLink, createMessage, getMe, getRequest, listDeals, listRequests, updateRequest,
} from "./gen/api";
import type { DealRequest } from "./gen/api";

// Node's process, declared here rather than installing @types/node.
declare const process: { argv: string[]; exitCode?: number };

const [base, ownerKey, otherKey] = process.argv.slice(2);
const as = (key: string): AxiosRequestConfig => ({ baseURL: base, headers: { Authorization: `Bearer ${key}` } });
const owner = as(ownerKey);
const other = as(otherKey);

function must(ok: unknown, what: string): asserts ok {
  if (!ok) throw new Error(`orval: ${what}`);
}
const ids = (rows: DealRequest[]) => rows.filter((r) => r.kind === "request").map((r) => r.id).sort();

// refused is the error answer of a call axios rejects (any status >= 400).
async function refused(call: Promise<unknown>): Promise<{ status: number; data: any }> {
  try {
    await call;
  } catch (err) {
    if (axios.isAxiosError(err) && err.response) return { status: err.response.status, data: err.response.data };
    throw err;
  }
  throw new Error("orval: a call that should have been refused was not");
}

// CommonJS, without top-level await, as the other TypeScript programs.
async function main() {
  const me = await getMe(owner);
  must(me.data.user.id, "GET /me");
  const deals = await listDeals(owner);
  must(deals.data.length > 0, "GET /deals: no deal");
  const dealId = deals.data[0].id;

  const all = await listRequests(dealId, undefined, owner);
  const want = ids(all.data.filter((r) => r.status === "open" || r.status === "partial"));
  must(want.length > 0 && want.length < ids(all.data).length, "the demo needs open, partial and complete requests");
  const filtered = await listRequests(dealId, { status: ["open", "partial"] }, owner);
  must(JSON.stringify(ids(filtered.data)) === JSON.stringify(want), `status[]=open&status[]=partial gave ${ids(filtered.data).length} requests, want ${want.length}`);
  const bogus = await refused(listRequests(dealId, { status: ["open", "bogus" as "open"] }, owner));
  must(bogus.status === 422 && bogus.data?.fields?.[0]?.path === "status", `status[]=bogus: ${bogus.status}`);

  const theirs = await listRequests(dealId, undefined, other);
  const row = theirs.data.find((r) => r.kind === "request" && r.status === "open" && r.can.answer);
  must(row, "no open request the counterparty may answer");
  const url = "https://example.com/generated-client/orval";
  const posted = await createMessage(dealId, row.id, { text: "Part of it, from orval.", partial: true, links: [{ url, label: "Data room" }] }, other);
  must(posted.status === 201 && posted.data.files.some((f) => f.url === url), `POST message: ${posted.status}`);

  const read = await getRequest(dealId, row.id, owner);
  const etag = read.headers["etag"];
  must(read.data.status === "partial" && typeof etag === "string" && etag, `GET the row: ${read.data.status}`);
  const done = await updateRequest(dealId, row.id, { status: "complete" }, { ...owner, headers: { ...owner.headers, "If-Match": etag } });
  must(done.data.status === "complete", `PATCH status: ${done.status}`);
  const back = await refused(updateRequest(dealId, row.id, { status: "open" }, other));
  must(back.status === 409 && back.data?.params?.reason === "status_not_allowed", `moving back: ${back.status}`);
  const stale = await refused(updateRequest(dealId, row.id, { status: "open" }, { ...owner, headers: { ...owner.headers, "If-Match": etag } }));
  must(stale.status === 409 && stale.data?.code === "conflict_stale", `a stale If-Match: ${stale.status}`);

  const file = theirs.data.flatMap((r) => r.files).find((f) => f.kind === "file" && f.downloadable);
  must(file, "no downloadable file in the counterparty's list");
  const link = await createDownloadLink(dealId, file.version_id, other);
  const bytes = await axios.get<ArrayBuffer>(link.data.url, { responseType: "arraybuffer" });
  must(bytes.data.byteLength === link.data.size, `fetching the link: ${bytes.data.byteLength} bytes of ${link.data.size}`);

  console.log(`orval: ${want.length} open or partial requests, message ${posted.data.id}, ${row.number} open → partial → complete (409 back), ${bytes.data.byteLength} bytes of ${link.data.filename}`);
}

main().catch((err) => {
  console.error(String(err));
  process.exitCode = 1;
});
