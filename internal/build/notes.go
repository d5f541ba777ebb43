package build

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agentcards/agentcards/internal/terminal"
)

// PrintKeys writes the notes and warnings of the keys a build signs with
// (keyring.Ring's).
func (r *Result) PrintKeys(w io.Writer) {
	for _, n := range r.Ring.Notes {
		fmt.Fprintf(w, "note: %s\n", terminal.Escape(n))
	}
	for _, x := range r.Ring.Warnings {
		fmt.Fprintf(w, "warning: %s\n", terminal.Escape(x))
	}
}

// PrintNotes writes the notes of a build that succeeded: the site's, and
// which agents have security requirements without scopes, with whether
// their cards carry the SDK projection signatures they need.
func (r *Result) PrintNotes(w io.Writer) {
	rep := r.Report
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "note: %s\n", terminal.Escape(n))
	}
	if len(rep.Projected) == 0 {
		return
	}
	ids := make([]string, 0, len(rep.Projected))
	for id := range rep.Projected {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var shown []string
	for i, id := range ids {
		if i == 5 {
			shown = append(shown, fmt.Sprintf("and %d more", len(ids)-5))
			break
		}
		shown = append(shown, id+": "+terminal.Escape(strings.Join(rep.Projected[id], ", ")))
	}
	fmt.Fprintf(w, "note: %d agent(s) have security requirements without scopes, which the A2A SDKs erase before they verify (%s).\n",
		len(ids), strings.Join(shown, "; "))
	if r.projection {
		fmt.Fprintf(w, "note: each key signed those cards twice: over the strict RFC 8785 form, and over the SDKs' form, which does not cover those fields (README, \"Scope-less security requirements\").\n")
	} else {
		fmt.Fprintf(w, "WARNING: site.sdkProjectionSignatures is false, so those cards carry strict signatures only and will NOT verify with the A2A SDKs.\n")
	}
}

// PrintWarnings writes the warnings of a build that succeeded (a previous
// private output left in place, say).
func (r *Result) PrintWarnings(w io.Writer) {
	for _, x := range r.Report.Warnings {
		fmt.Fprintf(w, "warning: %s\n", terminal.Escape(x))
	}
}
