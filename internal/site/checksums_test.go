package site

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentcards/agentcards/internal/layout"
	"github.com/agentcards/agentcards/internal/secret"
)

// TestChecksumsUseRecordsOnlyAsWritten checks where each line of layout.SumsFile
// comes from: the tree's record while the file is as it was written (the
// record is not checked against the bytes: a planted wrong sum shows that
// the file was not read again), the file's bytes once it changed since,
// and the bytes of a file nobody recorded, in any folder; agent folders
// are read on several cores and the lines still come sorted. The folder
// of an agent this build checked (or wrote) is not read again: its lines
// are the record's, a file the record names but the folder lacks among
// them.
func TestChecksumsUseRecordsOnlyAsWritten(t *testing.T) {
	root := t.TempDir()
	scanner, err := secret.NewScanner(nil)
	if err != nil {
		t.Fatal(err)
	}
	b := &tree{root: root, fresh: true, st: newTreeState(), secrets: scanner}
	var planted [32]byte
	copy(planted[:], "a sum the record holds, not the file's")
	want := map[string][32]byte{}
	for i := range 40 {
		id := fmt.Sprintf("agent-%d", i)
		if err := b.mkdir("agents/" + id + "/" + layout.WellKnown); err != nil {
			t.Fatal(err)
		}
		rec := agentRecord{}
		for _, name := range agentFileNames {
			rel := agentFile(id, name)
			data := []byte(rel + " as written")
			w, err := b.write(rel, data)
			if err != nil {
				t.Fatal(err)
			}
			rec.Stats, rec.Sums = append(rec.Stats, w.Stat), append(rec.Sums, w.Sum)
			want[rel] = sha256.Sum256(data)
		}
		switch i {
		case 3: // recorded, unchanged: the record's sum
			rec.Sums[0] = planted
			want[agentFile(id, agentFileNames[0])] = planted
		case 5: // recorded, changed since: read
			rec.Sums[1] = planted
			rel := agentFile(id, agentFileNames[1])
			rewrite(t, root, rel, "changed", want)
		case 7: // a file nobody recorded
			rel := "agents/" + id + "/" + layout.WellKnown + "/planted.json"
			rewrite(t, root, rel, "planted", want)
		case 9: // checked by this build: the record alone
			rec.checked = true
			rec.Extra = []string{"upstream.json"}
			rec.Stats, rec.Sums = append(rec.Stats, fileStat{}), append(rec.Sums, planted)
			want[agentFile(id, "upstream.json")] = planted
		}
		b.st.Agents.set(id, &rec)
	}
	for _, rel := range []string{"index.html", "page/2/index.html", layout.WellKnown + "/jwks.json"} {
		data := []byte(rel + " as written")
		w, err := b.writeDir(rel, data)
		if err != nil {
			t.Fatal(err)
		}
		b.record(rel, key{1}, w)
		want[rel] = sha256.Sum256(data)
	}
	rec := b.st.Files["index.html"]
	rec.Sum = planted
	b.st.Files["index.html"] = rec
	want["index.html"] = planted
	rec = b.st.Files["page/2/index.html"]
	rec.Sum = planted
	b.st.Files["page/2/index.html"] = rec
	rewrite(t, root, "page/2/index.html", "changed", want)
	rewrite(t, root, "robots.txt", "nobody recorded it", want)

	for range 2 { // the second time, layout.SumsFile is kept
		if err := b.checksums(); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(root, layout.SumsFile))
		if err != nil {
			t.Fatal(err)
		}
		var w strings.Builder
		for _, rel := range sortedNames(want) {
			fmt.Fprintf(&w, "%x  %s\n", want[rel], rel)
		}
		if string(got) != w.String() {
			t.Errorf("%s:\n got:\n%s\nwant:\n%s", layout.SumsFile, got, w.String())
		}
	}
}

// rewrite writes text to the tree's file rel behind the build's back.
func rewrite(t *testing.T, root, rel, text string, want map[string][32]byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	want[rel] = sha256.Sum256([]byte(text))
}

func sortedNames(m map[string][32]byte) []string { return slices.Sorted(maps.Keys(m)) }

// TestAgentFileIndex checks the names of an agent's folder that are its
// files.
func TestAgentFileIndex(t *testing.T) {
	for i, name := range agentFileNames {
		rel := strings.TrimPrefix(agentFile("a", name), "agents/a/")
		if got := agentFileIndex(rel); got != i {
			t.Errorf("agentFileIndex(%q) = %d, want %d", rel, got, i)
		}
	}
	for _, name := range []string{"", layout.WellKnown, layout.WellKnown + "/index.html", layout.CardFile, "x/" + layout.CardFile, layout.WellKnown + "/x.json", "index.htm"} {
		if got := agentFileIndex(name); got != -1 {
			t.Errorf("agentFileIndex(%q) = %d, want -1", name, got)
		}
	}
}

// TestSumsFileScanned checks the secret scan of layout.SumsFile: a name
// holding a key the build holds, in hex, fails the write, as it would in
// any other file, and so does a sum whose digits show the key's secret
// bytes read from the first digit or from the second (a sum taken from a
// tampered build state); plain names and sums pass.
func TestSumsFileScanned(t *testing.T) {
	_, key, _ := ed25519.GenerateKey(nil)
	scanner, err := secret.NewScanner([]crypto.Signer{key})
	if err != nil {
		t.Fatal(err)
	}
	b := &tree{root: t.TempDir(), fresh: true, st: newTreeState(), secrets: scanner}
	var sum, seed, shifted [32]byte
	copy(sum[:], "any sum at all, of 32 bytes here")
	copy(seed[:], key.Seed())
	// The digits "0" followed by the seed's first 63: read from the
	// second digit, they are the seed's first 31 bytes.
	if _, err := hex.Decode(shifted[:], []byte("0"+hex.EncodeToString(seed[:])[:63])); err != nil {
		t.Fatal(err)
	}
	plain := sumsText([]namedSum{{"index.html", sum}, {"agents/a/index.html", sum}, {"a\nb", sum}})
	if _, err := b.write(layout.SumsFile, plain); err != nil {
		t.Fatalf("a sums file of plain names and sums: %v", err)
	}
	for _, sums := range [][]namedSum{
		{{"index.html", sum}, {fmt.Sprintf("agents/%x/index.html", key.Seed()), sum}},
		{{"index.html", sum}, {fmt.Sprintf("agents/a\nb/%x", key.Seed()), sum}}, // escaped its way
		{{"index.html", sum}, {"agents/a/index.html", seed}},
		{{"index.html", shifted}, {"agents/a/index.html", sum}},
		{{"a\nb", seed}},
	} {
		_, err := b.write(layout.SumsFile, sumsText(sums))
		var leak *LeakError
		if !errors.As(err, &leak) {
			t.Errorf("a sums file of %q was written: %v", sums, err)
		}
	}
}

// TestTamperedStateSumsNotPublished: sums taken from a build state that
// was rewritten to hold a key's seed are checked like any published byte,
// and the build that would publish them fails, publishing nothing.
func TestTamperedStateSumsNotPublished(t *testing.T) {
	p := newProject(t, 3)
	_, key, _ := ed25519.GenerateKey(nil)
	s, err := secret.NewScanner([]crypto.Signer{key})
	if err != nil {
		t.Fatal(err)
	}
	p.secrets = s
	out := filepath.Join(t.TempDir(), "public")
	for range 2 {
		if _, err := p.build(out); err != nil {
			t.Fatal(err)
		}
	}
	before, err := os.ReadFile(filepath.Join(out, layout.SumsFile))
	if err != nil {
		t.Fatal(err)
	}
	st := loadState(statePath(out))
	if st.Live == nil || st.Standby == nil {
		t.Fatal("no state after two builds")
	}
	seed := [32]byte(key.Seed())
	for _, tr := range []*treeState{st.Live, st.Standby} {
		for id, rec := range tr.Agents.all() {
			for i := range rec.Sums {
				rec.Sums[i] = seed
			}
			tr.Agents.set(id, &rec)
		}
		for name, rec := range tr.Files {
			rec.Sum = seed
			tr.Files[name] = rec
		}
		tr.raw = nil
	}
	if err := st.save(statePath(out)); err != nil {
		t.Fatal(err)
	}
	_, err = p.build(out)
	var leak *LeakError
	if !errors.As(err, &leak) || leak.File != layout.SumsFile {
		t.Fatalf("a build with the key's seed as every recorded sum: %v", err)
	}
	after, err := os.ReadFile(filepath.Join(out, layout.SumsFile))
	if err != nil || !bytes.Equal(after, before) {
		t.Errorf("the published sums changed (%v)", err)
	}
}
