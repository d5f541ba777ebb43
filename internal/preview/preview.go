// Package preview serves a site on 127.0.0.1 while it is being written:
// it builds into a temporary folder with baseUrl rewritten to the local
// address, serves it with the headers production has (but no caching),
// rebuilds when the manifest, site/, templates/ or keys/ change, and keeps
// serving the last good build, with the error shown, when a rebuild fails.
package preview

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentcards/agentcards/internal/build"
	"github.com/agentcards/agentcards/internal/keyring"
	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/site"
	"github.com/agentcards/agentcards/internal/terminal"
)

// DefaultAddr is where serve listens unless told otherwise.
const DefaultAddr = "127.0.0.1:8090"

// Config says what to serve.
type Config struct {
	Manifest string // path of agents.toml
	Addr     string // listen address (loopback); port 0 picks one
	Keys     []keyring.Private
	// Secret is the text of $AGENTCARDS_SIGNING_KEY, which no file of the
	// preview may hold, as no file of a build may.
	Secret string
	// Log receives build results and errors (the terminal).
	Log io.Writer
	// Poll is how often sources are checked for changes (default 500ms).
	Poll time.Duration
	// Verbose logs every note of a build, not only the ones that ask
	// something of the user (build.Result.PrintNotes).
	Verbose bool
}

// Server is a running preview.
type Server struct {
	URL string

	cfg     Config
	tmp     string
	ln      net.Listener
	http    *http.Server
	mu      sync.RWMutex
	current string // folder of the last good build
	lastErr string // why the last rebuild failed ("" when it did not)
	keysDir string // the keys folder of the last manifest loaded, watched
	// snapshots are the MCP snapshots the last manifest loaded names,
	// watched.
	snapshots []string
	builds    int
	// extended is how many extended cards the last good build wrote;
	// announced says where they are has been logged.
	extended  int
	announced bool
	// generation counts rebuilds, good or failed (ReloadScriptPath).
	generation int
	done       chan struct{}
}

// Start listens, builds once, and serves until ctx is done. A first build
// that fails is not fatal: the error is shown until a rebuild succeeds.
func Start(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Addr == "" {
		cfg.Addr = DefaultAddr
	}
	if cfg.Poll <= 0 {
		cfg.Poll = 500 * time.Millisecond
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	host, _, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("address %q: %v", cfg.Addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("address %q: serve listens on loopback only (127.0.0.1)", cfg.Addr)
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "agentcards-serve-")
	if err != nil {
		ln.Close()
		return nil, err
	}
	s := &Server{cfg: cfg, tmp: tmp, ln: ln, URL: "http://" + ln.Addr().String(), done: make(chan struct{})}
	s.http = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	s.keysDir = filepath.Join(filepath.Dir(cfg.Manifest), "keys")
	if m, err := manifest.Load(cfg.Manifest); err == nil {
		s.keysDir = m.KeysDir()
		for _, srv := range m.MCPServers {
			s.snapshots = append(s.snapshots, srv.SnapshotPath)
		}
	}
	// Take the fingerprint before building, so that a change made during
	// the first build, or right after Start returns, is seen.
	fp := s.fingerprint()
	s.rebuild()
	go s.http.Serve(ln)
	go s.watch(ctx, fp)
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.http.Shutdown(shut)
		os.RemoveAll(s.tmp)
		close(s.done)
	}()
	return s, nil
}

// Done is closed when the server has stopped and cleaned up.
func (s *Server) Done() <-chan struct{} { return s.done }

// Status reports the number of good builds and the last error.
func (s *Server) Status() (builds int, lastErr string) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.builds, s.lastErr
}

// rebuild builds into the preview's site folder. The build is incremental
// and atomic like any other: it updates the standby tree beside the folder
// and exchanges the two, so the served folder always holds a whole site,
// and a failed build leaves it as it was.
func (s *Server) rebuild() {
	dir := filepath.Join(s.tmp, "site")
	res, err := s.build(dir)
	s.mu.Lock()
	defer s.mu.Unlock()
	// Every attempt, good or not, changes what the pages show: open pages
	// reload (ReloadPath) to show the new site or the error.
	s.generation++
	if err != nil {
		s.lastErr = err.Error()
		fmt.Fprintf(s.cfg.Log, "rebuild failed; still serving the last good site:\n%s\n", terminal.EscapeLines(err.Error()))
		return
	}
	s.current, s.lastErr = dir, ""
	s.builds++
	extended := res.Report.Extended
	s.extended = extended
	// What build would say of this site, beyond the files it wrote.
	if s.builds == 1 {
		res.PrintKeys(s.cfg.Log)
		res.PrintDevKey(s.cfg.Log, true)
	}
	res.PrintNotes(s.cfg.Log, s.cfg.Verbose)
	res.Lint.Print(s.cfg.Log)
	res.PrintWarnings(s.cfg.Log)
	if s.builds > 1 {
		fmt.Fprintln(s.cfg.Log, "rebuilt; open pages reload")
	}
	if extended > 0 && !s.announced {
		s.announced = true
		fmt.Fprintf(s.cfg.Log, "extended cards signed for this preview (jku %s/%s/%s): %s%cagents%c<id>%cextended-agent-card.json\n"+
			"  have the agent's server return these while you preview: the ones build writes name the production JWKS, which verify -extended against the preview refuses\n",
			s.URL, layout.WellKnown, layout.JWKSFile, s.privateDir(), filepath.Separator, filepath.Separator, filepath.Separator)
	}
}

// privateDir is where the preview builds the extended cards: in its
// temporary folder, never in the manifest's private output.
func (s *Server) privateDir() string { return filepath.Join(s.tmp, "private") }

// ExtendedDir is the folder of the extended cards of the last good
// build (agents/<id>/extended-agent-card.json, as build writes them to
// the private output), or "" when no agent has one. They are signed as
// the preview's public cards are, with the preview's own JWKS URL as
// jku, so that an agent's server that returns them while the preview
// runs passes verify -extended against the preview; those build writes
// name the production JWKS, which such a check refuses. The folder is
// the same for the life of the server, and removed when it stops.
func (s *Server) ExtendedDir() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.extended == 0 {
		return ""
	}
	return s.privateDir()
}

// Paths the preview answers itself; none is part of a built site.
const (
	// ReloadScriptPath is the script every preview page loads: it asks
	// GenerationPath each second and reloads the page when a rebuild
	// (good or failed) has happened since it loaded.
	ReloadScriptPath = "/__agentcards/reload.js"
	// GenerationPath answers the number of rebuilds so far.
	GenerationPath = "/__agentcards/generation"
)

// reloadScript is served at ReloadScriptPath.
const reloadScript = `(function () {
  // The generation the page was served at (injectReload): a rebuild that
  // ends between the page's load and its first question still reloads it.
  var me = document.currentScript;
  var seen = me && me.dataset.generation != null ? me.dataset.generation : null;
  function poll() {
    fetch(` + "`" + GenerationPath + "`" + `, { cache: 'no-store' }).then(function (r) { return r.text(); }).then(function (g) {
      if (seen === null) { seen = g; } else if (g !== seen) { location.reload(); return; }
      setTimeout(poll, 1000);
    }, function () { setTimeout(poll, 2000); });
  }
  poll();
})();
`

// injectReload puts the reload script before </body>, with the generation
// the page is served at.
func injectReload(page []byte, generation int) []byte {
	tag := []byte(` <script src="` + ReloadScriptPath + `" data-generation="` + strconv.Itoa(generation) + `" defer></script>`)
	i := bytes.LastIndex(page, []byte("</body>"))
	if i < 0 {
		return append(page, tag...)
	}
	out := append([]byte{}, page[:i]...)
	out = append(out, tag...)
	return append(out, page[i:]...)
}

// build builds the site into dir as `agentcards build` does (build.Run:
// the same keys, secret scan and lint), with the preview's origin as
// baseUrl and the extended cards in the preview's own folder, never next
// to the manifest and never served (ExtendedDir).
func (s *Server) build(dir string) (*build.Result, error) {
	src, err := manifest.Open(s.cfg.Manifest)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	m := src.Head
	// Watch the snapshots and the keys even when one of them is what is
	// wrong.
	s.mu.Lock()
	s.snapshots = s.snapshots[:0]
	for _, srv := range m.MCPServers {
		s.snapshots = append(s.snapshots, srv.SnapshotPath)
	}
	s.keysDir = m.KeysDir()
	s.mu.Unlock()
	return build.Run(build.Options{Source: src, Keys: s.cfg.Keys, Secret: s.cfg.Secret, AllowDev: true,
		BaseURL: s.URL, OutDir: dir, PrivateDir: s.privateDir()})
}

// watch rebuilds when a source changes.
func (s *Server) watch(ctx context.Context, last string) {
	t := time.NewTicker(s.cfg.Poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if fp := s.fingerprint(); fp != last {
			last = fp
			fmt.Fprintln(s.cfg.Log, "change seen; rebuilding")
			s.rebuild()
			// Changes made while building are caught on the next tick.
		}
	}
}

// fingerprint summarizes the names, sizes and times of every source file.
func (s *Server) fingerprint() string {
	h := sha256.New()
	dir := filepath.Dir(s.cfg.Manifest)
	add := func(p string) {
		if st, err := os.Stat(p); err == nil {
			fmt.Fprintf(h, "%s %d %d\n", p, st.Size(), st.ModTime().UnixNano())
		}
	}
	add(s.cfg.Manifest)
	// The manifest is not parsed on every poll: the keys folder is the one
	// the last load named.
	s.mu.RLock()
	keys := s.keysDir
	for _, p := range s.snapshots {
		add(p)
	}
	s.mu.RUnlock()
	for _, root := range []string{filepath.Join(dir, site.PagesDir), filepath.Join(dir, site.TemplatesDir), keys} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				add(p)
			}
			return nil
		})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ServeHTTP serves the last good build with production's headers, no
// caching, an ETag, and the last build error shown on HTML pages.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Answer only requests addressed to the preview itself, so that a web
	// page cannot reach it through DNS rebinding.
	if host, _, err := net.SplitHostPort(r.Host); err != nil || !(host == "127.0.0.1" || host == "localhost" || host == "::1" || host == "[::1]") {
		http.Error(w, "agentcards serve answers requests for 127.0.0.1 or localhost only", http.StatusMisdirectedRequest)
		return
	}
	if r.Method == http.MethodOptions && site.IsMachineReadable(path.Clean("/"+r.URL.Path)) {
		// A browser's CORS preflight (If-None-Match is not a simple
		// header): answered with the file's CORS headers.
		for k, v := range site.Headers(path.Clean("/" + r.URL.Path)) {
			if strings.HasPrefix(k, "Access-Control-") {
				w.Header().Set(k, v)
			}
		}
		w.Header().Set("Allow", "GET, HEAD, OPTIONS")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	s.mu.RLock()
	root, lastErr, generation := s.current, s.lastErr, s.generation
	s.mu.RUnlock()
	switch r.URL.Path {
	case ReloadScriptPath:
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		io.WriteString(w, reloadScript)
		return
	case GenerationPath:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, generation)
		return
	}
	if root == "" {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "<!doctype html><html lang=\"en\"><title>Build failed</title><body>%s</body></html>", injectReload([]byte(errorBanner(lastErr)), generation))
		return
	}
	urlPath := path.Clean("/" + r.URL.Path)
	if strings.HasSuffix(r.URL.Path, "/") && urlPath != "/" {
		urlPath += "/"
	}
	file := filepath.Join(root, filepath.FromSlash(urlPath))
	st, err := os.Stat(file)
	if err == nil && st.IsDir() {
		if !strings.HasSuffix(urlPath, "/") {
			http.Redirect(w, r, urlPath+"/", http.StatusMovedPermanently)
			return
		}
		file = filepath.Join(file, layout.IndexFile)
		_, err = os.Stat(file)
	}
	status := http.StatusOK
	if err != nil {
		status, urlPath = http.StatusNotFound, "/"+layout.NotFoundFile
		file = filepath.Join(root, layout.NotFoundFile)
	}
	body, err := os.ReadFile(file)
	if err != nil {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	if strings.HasSuffix(file, ".html") {
		if lastErr != "" {
			body = injectBanner(body, lastErr)
		}
		body = injectReload(body, generation)
	}
	for k, v := range site.Headers(urlPath) {
		w.Header().Set(k, v)
	}
	if strings.HasSuffix(file, ".html") {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
	}
	w.Header().Set("Cache-Control", "no-cache")
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	w.Header().Set("ETag", etag)
	if status == http.StatusOK && r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.WriteHeader(status)
	if r.Method == http.MethodGet {
		w.Write(body)
	}
}

func errorBanner(msg string) string {
	return `<div role="alert" style="margin:0;padding:.75rem 1rem;background:#fff1f0;color:#6e0b0b;border-bottom:3px solid #cf222e;font:14px/1.5 system-ui,sans-serif">` +
		`<strong>agentcards serve: the last rebuild failed; this is the last good site.</strong>` +
		`<pre style="white-space:pre-wrap;margin:.5rem 0 0">` + html.EscapeString(msg) + `</pre></div>`
}

// injectBanner puts the error banner right after <body>.
func injectBanner(page []byte, msg string) []byte {
	i := bytes.Index(page, []byte("<body>"))
	if i < 0 {
		return append([]byte(errorBanner(msg)), page...)
	}
	i += len("<body>")
	out := append([]byte{}, page[:i]...)
	out = append(out, errorBanner(msg)...)
	return append(out, page[i:]...)
}
