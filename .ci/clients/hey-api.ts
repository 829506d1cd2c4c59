// A small program through the SDK @hey-api/openapi-ts generates from the
// served document (default options: its bundled fetch client), run against
// a real `dealctl serve --demo` as both sides. Arguments: base URL, the
// owning side's key, the counterparty's key. Exits non-zero on the first
// answer that is not what the document promises.
import { createClient, createConfig } from "./gen/client";
import {
  createDownloadLink, createMessage, getMe, getRequest, listDeals, listRequests, updateRequest,
} from "./gen/sdk.gen";
import type { DealRequest } from "./gen/types.gen";

// Node's process, declared here rather than installing @types/node.
declare const process: { argv: string[]; exitCode?: number };

const [base, ownerKey, otherKey] = process.argv.slice(2);
const owner = createClient(createConfig({ baseUrl: base, auth: ownerKey }));
const other = createClient(createConfig({ baseUrl: base, auth: otherKey }));

function must(ok: unknown, what: string): asserts ok {
  if (!ok) throw new Error(`hey-api: ${what}`);
}
const ids = (rows: DealRequest[]) => rows.filter((r) => r.kind === "request").map((r) => r.id).sort();

// CommonJS, without top-level await: the generated code imports without
// file extensions, which Node's ES module loader does not resolve.
async function main() {
  const me = await getMe({ client: owner });
  must(me.data?.user.id, `GET /me: ${me.response.status}`);
  const deals = await listDeals({ client: owner });
  must(deals.data && deals.data.length > 0, "GET /deals: no deal");
  const deal_id = deals.data[0].id;

  const all = await listRequests({ client: owner, path: { deal_id } });
  must(all.data, `GET requests: ${all.response.status}`);
  const want = ids(all.data.filter((r) => r.status === "open" || r.status === "partial"));
  must(want.length > 0 && want.length < ids(all.data).length, "the demo needs open, partial and complete requests");
  const filtered = await listRequests({ client: owner, path: { deal_id }, query: { status: ["open", "partial"] } });
  must(filtered.data && JSON.stringify(ids(filtered.data)) === JSON.stringify(want), `a two-value status filter: ${filtered.response.status}`);

  const theirs = await listRequests({ client: other, path: { deal_id } });
  must(theirs.data, "the counterparty's list");
  const row = theirs.data.find((r) => r.kind === "request" && r.status === "open" && r.can.answer);
  must(row, "no open request the counterparty may answer");
  const rowPath = { deal_id, request_id: row.id };
  const url = "https://example.com/generated-client/hey-api";
  const posted = await createMessage({
    client: other, path: rowPath,
    body: { text: "Part of it, from hey-api.", partial: true, links: [{ url, label: "Data room" }] },
  });
  must(posted.response.status === 201 && posted.data && posted.data.files.some((f) => f.url === url), `POST message: ${posted.response.status}`);

  const read = await getRequest({ client: owner, path: rowPath });
  const etag = read.response.headers.get("ETag");
  must(read.data?.status === "partial" && etag, `GET the row: ${read.response.status} ${read.data?.status}`);
  const done = await updateRequest({ client: owner, path: rowPath, headers: { "If-Match": etag }, body: { status: "complete" } });
  must(done.data?.status === "complete", `PATCH status: ${done.response.status}`);
  const back = await updateRequest({ client: other, path: rowPath, body: { status: "open" } });
  must(back.response.status === 409 && back.error?.params?.reason === "status_not_allowed", `moving back: ${back.response.status}`);
  const stale = await updateRequest({ client: owner, path: rowPath, headers: { "If-Match": etag }, body: { status: "open" } });
  must(stale.response.status === 409 && stale.error?.code === "conflict_stale", `a stale If-Match: ${stale.response.status}`);

  const file = theirs.data.flatMap((r) => r.files).find((f) => f.kind === "file" && f.downloadable);
  must(file, "no downloadable file in the counterparty's list");
  const link = await createDownloadLink({ client: other, path: { deal_id, version_id: file.version_id } });
  must(link.data, `download link: ${link.response.status}`);
  const bytes = await fetch(link.data.url);
  const body = new Uint8Array(await bytes.arrayBuffer());
  must(bytes.ok && body.length === link.data.size, `fetching the link: ${bytes.status}, ${body.length} bytes of ${link.data.size}`);

  console.log(`hey-api: ${want.length} open or partial requests, message ${posted.data.id}, ${row.number} open → partial → complete (409 back), ${body.length} bytes of ${link.data.filename}`);
}

main().catch((err) => {
  console.error(String(err));
  process.exitCode = 1;
});
