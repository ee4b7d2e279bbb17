// The official @gitbook/api client, unchanged, against `gitbook-tui serve`:
// list, read, comment, change-request edit and merge. Prints one JSON summary line.
import { GitBookAPI } from "@gitbook/api";

const api = new GitBookAPI({ endpoint: process.env.GITBOOK_ENDPOINT, authToken: process.env.GITBOOK_TOKEN });

const me = (await api.user.getAuthenticatedUser()).data;
const orgs = (await api.orgs.listOrganizationsForAuthenticatedUser()).data;
const org = orgs.items[0];
const space = (await api.orgs.createSpace(org.id, { title: "From the JS client" })).data;
const cr = (await api.spaces.createChangeRequest(space.id, { subject: "Add a page" })).data;
await api.spaces.updateChangeRequestContent(space.id, cr.id, {
  changes: [
    { operation: "insert_page", title: "Hello", document: { markdown: "# Hello\n\nWritten by the JS client." } },
  ],
});
const merged = (await api.spaces.mergeChangeRequest(space.id, cr.id)).data;
const pages = (await api.spaces.listPages(space.id)).data.pages;
const page = (await api.spaces.getPageById(space.id, pages[0].id, { format: "markdown" })).data;
const comment = (await api.spaces.postCommentInSpace(space.id, { page: page.id, body: { markdown: "Nice page" } })).data;
const comments = (await api.spaces.listCommentsInSpace(space.id)).data;
let notFound = null;
try {
  await api.spaces.getSpaceById("no-such-space");
} catch (error) {
  notFound = { status: error.code ?? error.response?.status, message: error.message };
}
console.log(JSON.stringify({
  user: me.id,
  orgs: orgs.items.length,
  space: space.id,
  merged: merged.result,
  pages: pages.map((p) => p.title),
  markdown: page.markdown,
  comment: comment.body.markdown,
  comments: comments.count,
  notFound,
}));
