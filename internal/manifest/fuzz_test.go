package manifest

import (
	"os"
	"testing"
)

// FuzzParse checks that no input makes Parse panic, that a manifest it
// accepts has what a build relies on, and that reading agent by agent
// gives what reading the whole document gives.
func FuzzParse(f *testing.F) {
	example, err := os.ReadFile("../../agents.toml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(example)
	f.Add([]byte(validAgent))
	f.Add([]byte("[site]\nbaseUrl = \"https://x.example.com\"\n[[agents]]\nparams = { a = [1, {b = 2}] }\n"))
	f.Add([]byte(twoAgents))
	f.Fuzz(func(t *testing.T, src []byte) {
		sameAs(t, string(src), false)
		m, err := Parse("f.toml", src)
		if err != nil {
			if _, ok := err.(Errors); !ok {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		if len(m.Agents) == 0 || m.Site.BaseURL == "" {
			t.Fatal("accepted a manifest without agents or baseUrl")
		}
		for _, a := range m.Agents {
			if len(a.Skills) == 0 || len(a.SupportedInterfaces) == 0 || a.ID == "" {
				t.Fatalf("accepted agent %+v", a)
			}
		}
	})
}
