package keyring_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentcards/agentcards/internal/keyring"
)

// day is a date at noon UTC.
func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t.Add(12 * time.Hour)
}

// writeRotation writes content as dir's rotation.toml.
func writeRotation(t *testing.T, dir, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, keyring.RotationFile), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoadRotation: an absent file is an empty rotation; a file that
// does not decode, names a key it does not know, or holds a state or date
// of another kind is refused, naming the entry.
func TestLoadRotation(t *testing.T) {
	for _, tc := range []struct {
		name, content string // content "" is no file
		want          []keyring.Entry
		err           string
	}{
		{name: "absent"},
		{name: "entries", content: "[[keys]]\nkid = \"a\"\nstate = \"next\"\nsince = \"2026-01-31\"\n\n[[keys]]\nkid = \"b\"\nstate = \"dropped\"\nsince = \"2025-12-01\"\n",
			want: []keyring.Entry{{KID: "a", State: keyring.StateNext, Since: "2026-01-31"}, {KID: "b", State: keyring.StateDropped, Since: "2025-12-01"}}},
		{name: "not TOML", content: "[[keys]\n", err: "rotation.toml: "},
		{name: "unknown key", content: "[[keys]]\nkid = \"a\"\nstate = \"next\"\nsince = \"2026-01-31\"\nwhen = 1\n", err: "rotation.toml: unknown key keys.when"},
		{name: "unknown state", content: "[[keys]]\nkid = \"a\"\nstate = \"pending\"\nsince = \"2026-01-31\"\n", err: `keys[0] (kid a): state "pending" is not next, active, retired or dropped`},
		{name: "no state", content: "[[keys]]\nkid = \"a\"\nsince = \"2026-01-31\"\n", err: `keys[0] (kid a): state "" is not next`},
		{name: "bad date", content: "[[keys]]\nkid = \"a\"\nstate = \"active\"\nsince = \"2026-01-31\"\n[[keys]]\nkid = \"b\"\nstate = \"retired\"\nsince = \"31.01.2026\"\n", err: `keys[1] (kid b): since "31.01.2026" is not a date such as 2026-01-31`},
		{name: "no date", content: "[[keys]]\nkid = \"a\"\nstate = \"active\"\n", err: `keys[0] (kid a): since "" is not a date`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.content != "" {
				writeRotation(t, dir, tc.content)
			}
			r, err := keyring.LoadRotation(dir)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.Keys, tc.want) {
				t.Errorf("entries %v, want %v", r.Keys, tc.want)
			}
		})
	}
}

// TestRotationStates: a key with no entry is active; Set records the
// state as of the day given, replacing an earlier one; Remove forgets it;
// Describe sums the entries up.
func TestRotationStates(t *testing.T) {
	r, err := keyring.LoadRotation(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if state, since := r.State("a"); state != keyring.StateActive || since != "" {
		t.Errorf("a key with no entry is %q since %q, want active", state, since)
	}
	r.Set("a", keyring.StateNext, day("2026-01-02"))
	r.Set("b", keyring.StateRetired, day("2026-01-03"))
	r.Set("a", keyring.StateActive, day("2026-01-04"))
	if state, since := r.State("a"); state != keyring.StateActive || since != "2026-01-04" {
		t.Errorf("a is %q since %q, want active since 2026-01-04", state, since)
	}
	if got, want := r.Describe(), "a=active, b=retired"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
	r.Remove("a")
	if got, want := r.Describe(), "b=retired"; got != want {
		t.Errorf("after Remove, Describe = %q, want %q", got, want)
	}
}

// TestRotationSave: Save writes what LoadRotation reads back, under a
// comment that explains the states, and removes the file when no key has
// an entry left.
func TestRotationSave(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, keyring.RotationFile)
	r, err := keyring.LoadRotation(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Save(); err != nil {
		t.Fatalf("saving an empty rotation with no file: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("an empty rotation wrote %s: %v", path, err)
	}
	r.Set("a", keyring.StateNext, day("2026-01-02"))
	if err := r.Save(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "# Key rotation states, kept by `agentcards keys`.") {
		t.Errorf("the file does not start with its comment:\n%s", data)
	}
	back, err := keyring.LoadRotation(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []keyring.Entry{{KID: "a", State: keyring.StateNext, Since: "2026-01-02"}}; !slices.Equal(back.Keys, want) {
		t.Errorf("read back %v, want %v", back.Keys, want)
	}
	back.Remove("a")
	if err := back.Save(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the file outlives its last entry: %v", err)
	}
}

// TestOverdue: a retired key is overdue once it has been kept longer than
// RetiredKeepDays; keys in other states never are.
func TestOverdue(t *testing.T) {
	today := day("2026-03-10")
	for _, tc := range []struct {
		name, state, since string
		overdue            bool
	}{
		{"retired today", keyring.StateRetired, "2026-03-10", false},
		{"retired a week ago", keyring.StateRetired, "2026-03-03", false},
		{"retired eight days ago", keyring.StateRetired, "2026-03-02", true},
		{"retired long ago", keyring.StateRetired, "2020-01-01", true},
		{"next long ago", keyring.StateNext, "2020-01-01", false},
		{"active long ago", keyring.StateActive, "2020-01-01", false},
		{"dropped long ago", keyring.StateDropped, "2020-01-01", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := keyring.LoadRotation(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			r.Set("k", tc.state, day(tc.since))
			got := r.Overdue(today)
			if !tc.overdue {
				if len(got) != 0 {
					t.Errorf("Overdue = %q, want none", got)
				}
				return
			}
			if len(got) != 1 || !strings.HasPrefix(got[0], "key k was retired ") || !strings.HasSuffix(got[0], "(more than 7): cached cards have expired, so drop it: agentcards keys drop k") {
				t.Errorf("Overdue = %q", got)
			}
		})
	}
}
