package secret

import (
	"encoding/base64"
	"net/url"
	"strings"
	"testing"
)

// TestScanPathEscapedWrappedDER: an unarmored DER key in base64,
// wrapped at 64 columns and url.PathEscape'd (newlines %0A, '/' %2F, '+'
// left as is), is found only through the percent view that reads '+' as
// itself; no other test fails when that view is removed.
func TestScanPathEscapedWrappedDER(t *testing.T) {
	k := testKeys()
	for _, der := range [][]byte{pkcs8(t, k.rsa), pkcs8(t, k.ec)} {
		b := base64.StdEncoding.EncodeToString(der)
		if !strings.Contains(b, "+") {
			t.Skip("no + in this key's base64")
		}
		in := url.PathEscape(wrap(b, 64, "\n"))
		if _, ok := InText(in); !ok {
			t.Errorf("InText missed PathEscape'd wrapped DER")
		}
		s, _ := NewScanner(nil)
		if _, ok := s.Scan("a.html", []byte("<a href=\"/k/"+in+"\">k</a>")); !ok {
			t.Errorf("Scan missed PathEscape'd wrapped DER")
		}
	}
}
