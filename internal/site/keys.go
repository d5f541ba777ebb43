package site

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"os"
	"strconv"
	"sync"

	"github.com/agentcards/agentcards/internal/manifest"
	"github.com/agentcards/agentcards/internal/program"
	"github.com/agentcards/agentcards/templates"
)

// key identifies the inputs of an output (or, for some files, the output
// itself): a truncated SHA-256.
type key [16]byte

// hashParts hashes parts so that no two lists of parts collide by
// concatenation.
func hashParts(parts ...[]byte) key {
	h := sha256.New()
	var n [8]byte
	for _, p := range parts {
		binary.LittleEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write(p)
	}
	var k key
	copy(k[:], h.Sum(nil))
	return k
}

// buildFormat names the layout and rules of this build code; changing how
// outputs are made without changing the program is impossible, so the
// program's own bytes are part of every key too (programKey).
const buildFormat = "agentcards build 2"

var programKeyOnce = sync.OnceValue(func() []byte {
	if d, ok := program.Digest(); ok {
		return d[:]
	}
	// Unknown program: no output can be reused across runs.
	var k [16]byte
	f, _ := os.Open("/dev/urandom")
	if f != nil {
		f.Read(k[:])
		f.Close()
	}
	return k[:]
})

// programKey identifies the running agentcards binary.
func programKey() []byte { return programKeyOnce() }

// inputKeys are the keys of the inputs many outputs share, from which
// each agent's and each group's key is made (README, "Incremental
// builds").
type inputKeys struct {
	site key            // everything every page shares
	mcp  key            // what the MCP servers add to the first group's listings
	docs map[string]key // each site/agents/<id>.md, by agent id
}

// siteKey is the key of everything every page shares: the head of the
// manifest, the published keys and the signers, site/ (pagesKey), the
// templates, and the scanner's digest (a file kept from an earlier build
// was scanned only for the keys that build held).
func siteKey(m *manifest.Manifest, opts Options, pagesKey key, tpl *templates.Set) (key, error) {
	head, err := json.Marshal(struct {
		Site     manifest.Site
		Provider *manifest.Provider
	}{m.Site, m.Provider})
	if err != nil {
		return key{}, err
	}
	jwks, err := opts.Keys.JSON()
	if err != nil {
		return key{}, err
	}
	var signers []byte
	for _, s := range opts.Signers {
		signers = append(signers, s.KID+" "+s.Alg+"\n"...)
	}
	return hashParts([]byte(buildFormat), programKey(), head, jwks, signers, pagesKey[:], tpl.Digest(), opts.Secrets.Digest()), nil
}

// mcpKey is the key of everything the MCP servers contribute to the first
// group's listings (front page, flat catalog, first search shard).
func mcpKey(m *manifest.Manifest) (key, error) {
	b, err := json.Marshal(m.MCPServers)
	if err != nil {
		return key{}, err
	}
	return hashParts([]byte("mcp"), b), nil
}

// agent is the key of everything an agent's own files depend on: the
// site, its source raw, its id, its docs and whether it is the default.
func (k *inputKeys) agent(raw key, id string, isDefault bool) key {
	doc := k.docs[id]
	def := []byte{0}
	if isDefault {
		def[0] = 1
	}
	return hashParts(k.site[:], raw[:], []byte(id), doc[:], def)
}

// group is the key of group g's listings, in a site of n agents: the
// site, the MCP servers (first group only) and the keys of its agents.
func (k *inputKeys) group(g, n int, ms []member) key {
	parts := make([][]byte, 0, 3+len(ms))
	parts = append(parts, k.site[:], []byte(strconv.Itoa(n)))
	if g == 0 {
		parts = append(parts, k.mcp[:])
	}
	for j := range ms {
		parts = append(parts, ms[j].key[:])
	}
	return hashParts(parts...)
}
