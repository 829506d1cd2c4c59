// A small program through the client openapi-typescript + openapi-fetch
// generate from the served document (default options), run against a
// real `dealctl serve --demo` as both sides. Arguments: base URL, the
// owning side's key, the counterparty's key. Exits non-zero on the first
// answer that is not what the document promises.
import createClient from "openapi-fetch";
import type { paths, components } from "./schema";

// Node's process, declared here rather than installing @types/node.
declare const process: { argv: string[] };

type Row = components["schemas"]["DealRequest"];
const [base, ownerKey, otherKey] = process.argv.slice(2);
const as = (key: string) => createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${key}` } });
const owner = as(ownerKey);
const other = as(otherKey);

function must(ok: unknown, what: string): asserts ok {
  if (!ok) throw new Error(`openapi-fetch: ${what}`);
}
const ids = (rows: Row[]) => rows.filter((r) => r.kind === "request").map((r) => r.id).sort();

const me = await owner.GET("/api/v1/me");
must(me.data?.user.id, `GET /me: ${me.response.status}`);

const deals = await owner.GET("/api/v1/deals");
must(deals.data && deals.data.length > 0, "GET /deals: no deal");
const deal = deals.data[0];
const path = { deal_id: deal.id };
must(deal.parties.some((p) => p.is_owner), "a deal without an owning party");

// A two-value filter, as openapi-fetch sends an array (status=open&status=partial).
const all = await owner.GET("/api/v1/deals/{deal_id}/requests", { params: { path } });
must(all.data, `GET requests: ${all.response.status}`);
const want = ids(all.data.filter((r) => r.status === "open" || r.status === "partial"));
must(want.length > 0 && want.length < ids(all.data).length, "the demo needs open, partial and complete requests");
const filtered = await owner.GET("/api/v1/deals/{deal_id}/requests", {
  params: { path, query: { status: ["open", "partial"] } },
});
must(filtered.data, `filtered GET: ${filtered.response.status}`);
must(JSON.stringify(ids(filtered.data)) === JSON.stringify(want), `status=open&status=partial gave ${ids(filtered.data).length} requests, want ${want.length}`);
const bogus = await owner.GET("/api/v1/deals/{deal_id}/requests", {
  params: { path, query: { status: ["open", "bogus" as "open"] } },
});
must(bogus.response.status === 422 && bogus.error?.fields?.[0]?.path === "status", `status=open&status=bogus: ${bogus.response.status}`);

// The counterparty answers an open request in part, with a link.
const theirs = await other.GET("/api/v1/deals/{deal_id}/requests", { params: { path } });
must(theirs.data, "the counterparty's list");
const row = theirs.data.find((r) => r.kind === "request" && r.status === "open" && r.can.answer);
must(row, "no open request the counterparty may answer");
const rowPath = { deal_id: deal.id, request_id: row.id };
const url = "https://example.com/generated-client/openapi-fetch";
const posted = await other.POST("/api/v1/deals/{deal_id}/requests/{request_id}/messages", {
  params: { path: rowPath },
  body: { text: "Part of it, from openapi-fetch.", partial: true, links: [{ url, label: "Data room" }] },
});
must(posted.response.status === 201 && posted.data, `POST message: ${posted.response.status}`);
must(posted.data.files.some((f) => f.kind === "link" && f.url === url), "the posted link is not among the message's files");

// The owning side reads the row (ETag), completes it with If-Match; the
// counterparty may not move it back (409), nor may a stale If-Match pass.
const read = await owner.GET("/api/v1/deals/{deal_id}/requests/{request_id}", { params: { path: rowPath } });
must(read.data?.status === "partial", `the answer did not move the row to partial: ${read.data?.status}`);
const etag = read.response.headers.get("ETag");
must(etag, "GET of a row without an ETag");
const done = await owner.PATCH("/api/v1/deals/{deal_id}/requests/{request_id}", {
  params: { path: rowPath, header: { "If-Match": etag } },
  body: { status: "complete" },
});
must(done.data?.status === "complete" && done.response.headers.get("ETag"), `PATCH status: ${done.response.status}`);
const back = await other.PATCH("/api/v1/deals/{deal_id}/requests/{request_id}", {
  params: { path: rowPath },
  body: { status: "open" },
});
must(back.response.status === 409 && back.error?.params?.reason === "status_not_allowed", `moving back: ${back.response.status}`);
const stale = await owner.PATCH("/api/v1/deals/{deal_id}/requests/{request_id}", {
  params: { path: rowPath, header: { "If-Match": etag } },
  body: { status: "open" },
});
must(stale.response.status === 409 && stale.error?.code === "conflict_stale", `a stale If-Match: ${stale.response.status}`);

// A file given in answer: a download link, then its bytes, without the key.
const file = theirs.data.flatMap((r) => r.files).find((f) => f.kind === "file" && f.downloadable);
must(file, "no downloadable file in the counterparty's list");
const link = await other.POST("/api/v1/deals/{deal_id}/files/{version_id}/download-link", {
  params: { path: { deal_id: deal.id, version_id: file.version_id } },
});
must(link.data, `download link: ${link.response.status}`);
const bytes = await fetch(link.data.url);
const body = new Uint8Array(await bytes.arrayBuffer());
must(bytes.ok && body.length === link.data.size, `fetching the link: ${bytes.status}, ${body.length} bytes of ${link.data.size}`);

// A request of a title alone: no other field of DealRequestCreate is
// required, in the document or in the generated type.
const created = await owner.POST("/api/v1/deals/{deal_id}/requests", { params: { path }, body: { title: "Certificate of good standing" } });
must(created.response.status === 201 && created.data?.status === "open" && created.response.headers.get("ETag"), `POST a request: ${created.response.status}`);

console.log(`openapi-fetch: ${want.length} open or partial requests, message ${posted.data.id}, ${row.number} open → partial → complete (409 back), ${body.length} bytes of ${link.data.filename}`);
