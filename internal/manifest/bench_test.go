package manifest

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkSourceAgent decodes and checks one agent like the build
// benchmark's (testdata/bench): a description of about a hundred words,
// two interfaces, an API key scheme and five skills with tags and
// examples.
func BenchmarkSourceAgent(b *testing.B) {
	var src strings.Builder
	src.WriteString("[site]\nbaseUrl = \"https://agents.example.com\"\ntitle = \"Bench\"\n\n[provider]\norganization = \"Bench Co.\"\nurl = \"https://bench.example.com\"\n\n")
	desc := strings.Repeat("The agent books flights, hotels and trains; it compares fares and holds seats. ", 8)
	fmt.Fprintf(&src, "[[agents]]\nid = \"agent-1\"\nname = \"Travel Agent\"\ndescription = \"\"\"\n%s\n\n%s\"\"\"\nversion = \"1.2.0\"\n", desc, desc)
	src.WriteString("[[agents.supportedInterfaces]]\nurl = \"https://a.example.com/a2a\"\nprotocolBinding = \"JSONRPC\"\nprotocolVersion = \"1.0\"\n")
	src.WriteString("[[agents.supportedInterfaces]]\nurl = \"https://a.example.com/rest\"\nprotocolBinding = \"HTTP+JSON\"\nprotocolVersion = \"1.0\"\n")
	src.WriteString("[agents.capabilities]\nstreaming = true\n[agents.securitySchemes.key]\ntype = \"apiKey\"\nlocation = \"header\"\nname = \"X-Key\"\n[[agents.securityRequirements]]\nkey = []\n")
	for i := range 5 {
		fmt.Fprintf(&src, "[[agents.skills]]\nid = \"skill-%d\"\nname = \"Skill %d\"\ndescription = \"Finds and books the cheapest flight that fits the dates, with seats held while you decide.\"\ntags = [\"travel\", \"booking\", \"fares\"]\nexamples = [\"Book a flight to Lisbon\", \"Find a hotel in Porto\"]\n", i, i)
	}
	s, err := OpenBytes("agents.toml", []byte(src.String()))
	if err != nil {
		b.Fatal(err)
	}
	if problems, _ := s.Problems(); len(problems) > 0 {
		b.Fatal(problems)
	}
	raw, err := s.Raw(0)
	if err != nil {
		b.Fatal(err)
	}
	if _, problems := s.Agent(0, raw); problems != nil {
		b.Fatal(problems)
	}
	b.ReportAllocs()
	for b.Loop() {
		s.Agent(0, raw)
	}
}
