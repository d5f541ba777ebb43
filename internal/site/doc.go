// Package site writes the output tree: signed cards for every agent, the
// JWKS, the AI catalog and an index page. A build is atomic (written beside
// the output folder and swapped in at the end) and reproducible.
//
// [Build] checks its options and resolves the folders (site.go), opens the
// standby tree beside the output under the build's locks (publish.go), has
// a builder bring that tree up to date (pipeline.go), and publishes it: the
// private output first, then the standby exchanged with the output. The
// exchange_*.go, lock_*.go and ctime_*.go files hold what differs from one
// system to another.
//
// The files of the package, by what they make. Planning and incremental
// state:
//
//   - plan.go: how the agents are cut into groups, and each group's listing
//     files;
//   - keys.go: the keys of a build's inputs: the site's, the MCP servers',
//     each agent's and each group's;
//   - pipeline.go: the builder, which builds the groups on every core, then
//     the whole site's files;
//   - tree.go: the standby tree as the build writes it, its record, and
//     pruning;
//   - incremental.go: the state: what each tree holds, made from what;
//   - agenttable.go: a tree's record of its agents, which a large site
//     holds through the whole build: one table, nothing in it for the
//     garbage collector to follow;
//   - statefile.go: the state file's layout, read and written whole;
//   - lstat_linux.go, lstat_other.go: a file as the build wrote it;
//   - checksums.go: sha256sums.txt, from the record wherever it holds;
//   - publish.go: the standby under the locks, and the exchange.
//
// Pages (HTML, search index):
//
//   - sitedir.go: what site/ holds: the intro, extra pages, agents' docs;
//   - pages.go, html.go: the page renderer, the front list and each agent's
//     page;
//   - mcppage.go, params.go, call.go: each MCP server's page and its tools'
//     parameter tables; how to call an agent;
//   - search.go: the search shards;
//   - sitemap.go: sitemap.xml and its pieces.
//
// Machine files (cards, JWKS, catalogs, MCP):
//
//   - agents.go: an agent's own files: kept, copied from the live output,
//     or built;
//   - cards.go: the signed cards, and the default agent's at the root;
//   - catalog.go: the AI Catalog, flat or nested;
//   - mcp.go: the MCP servers' Server Cards and catalog entries;
//   - listings.go: a group's listings: pages of the front list, catalog
//     piece, search shard, sitemap piece;
//   - sitefiles.go: the whole site's files: the JWKS, the root catalog,
//     extra pages, 404.html, assets, _headers, robots.txt, the sitemap;
//   - headers.go, headersfile.go: the response headers, and _headers.
//
// Private output:
//
//   - extended.go: the extended cards;
//   - leaks.go: the check that no text only they hold is published;
//   - private.go: the private output folder, replaced as a whole;
//   - oldprivate.go: removing the previous private output when it moved.
package site
