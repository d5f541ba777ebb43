package build

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agentcards/agentcards/internal/terminal"
)

// PrintKeys writes the notes and warnings of the keys a build signs with
// (keyring.Ring's), and which key file it found when none was given.
func (r *Result) PrintKeys(w io.Writer) {
	for _, n := range r.Ring.Notes {
		fmt.Fprintf(w, "note: %s\n", terminal.Escape(n))
	}
	for _, x := range r.Ring.Warnings {
		fmt.Fprintf(w, "warning: %s\n", terminal.Escape(x))
	}
	if len(r.Ring.Found) > 0 {
		fmt.Fprintf(w, "note: signed with %s, found there because no -key or $AGENTCARDS_SIGNING_KEY was given (README, \"Signing keys\")\n", terminal.Escape(strings.Join(r.Ring.Found, " and ")))
	}
}

// PrintDevKey says, once and last, that the development key signed:
// what it is, that the site is not to be published, and the command
// that ends it. A preview says so in a line: it is what a preview is for.
func (r *Result) PrintDevKey(w io.Writer, preview bool) {
	ring := r.Ring
	if ring.DevKey == "" {
		return
	}
	if preview {
		fmt.Fprintln(w, "note: previewing with the development key (fine for a local preview; `build` refuses it under CI)")
		return
	}
	made := ""
	if ring.DevCreated {
		made = ", made by this build"
	}
	fmt.Fprintf(w, "warning: signed with the DEVELOPMENT key (%s%s), for local previews only: do not publish this site.\n"+
		"warning: `agentcards keygen` makes a real key, and the next build signs with it (README, \"Signing keys\").\n", terminal.Escape(ring.DevKey), made)
}

// PrintNotes writes the notes of a build that succeeded: the site's and,
// with verbose, which agents have security requirements without scopes
// and that their cards carry the SDK projection signatures they need,
// which asks nothing of the user. A site that turned those signatures off
// is warned whatever verbose says: its cards fail in the A2A SDKs.
func (r *Result) PrintNotes(w io.Writer, verbose bool) {
	rep := r.Report
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "note: %s\n", terminal.Escape(n))
	}
	if len(rep.Projected) == 0 || (r.projection && !verbose) {
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
	if !r.projection {
		fmt.Fprintf(w, "warning: site.sdkProjectionSignatures is false, so the cards of %d agent(s) with security requirements without scopes (%s) carry strict signatures only and will NOT verify with the A2A SDKs (README, \"Scope-less security requirements\").\n",
			len(ids), strings.Join(shown, "; "))
		return
	}
	fmt.Fprintf(w, "note: %d agent(s) have security requirements without scopes, which the A2A SDKs erase before they verify (%s).\n",
		len(ids), strings.Join(shown, "; "))
	fmt.Fprintf(w, "note: each key signed those cards twice: over the strict RFC 8785 form, and over the SDKs' form, which does not cover those fields (README, \"Scope-less security requirements\").\n")
}

// PrintWarnings writes the warnings of a build that succeeded (a previous
// private output left in place, say).
func (r *Result) PrintWarnings(w io.Writer) {
	for _, x := range r.Report.Warnings {
		fmt.Fprintf(w, "warning: %s\n", terminal.Escape(x))
	}
}
