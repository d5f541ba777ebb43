package secret

import (
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestInTextFindsEncodedKeys: private keys in the encodings issue 26's
// review published (A1): base64 of PEM files and of credential files
// (also followed by more words, which a blank does not join to the run),
// base64url of a private JWK, PEM bodies wrapped with blanks, and JWK
// members in any letter case.
func TestInTextFindsEncodedKeys(t *testing.T) {
	k := testKeys()
	edPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8(t, k.ed)})
	rsaPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8(t, k.rsa)})
	gcp, _ := json.Marshal(map[string]string{"type": "service_account", "private_key": string(rsaPEM)})
	body := base64.StdEncoding.EncodeToString(x509.MarshalPKCS1PrivateKey(k.rsa))
	b64, url := base64.StdEncoding.EncodeToString, base64.RawURLEncoding.EncodeToString
	seed := url(k.ed.Seed())
	jwk := `{"kty":"OKP","crv":"Ed25519","d":"` + seed + `"}`
	for name, text := range map[string]string{
		"base64 of a PEM file":          b64(edPEM),
		"base64url of a PEM file":       url(edPEM),
		"base64 of a service account":   b64(gcp),
		"base64 of base64 of a PEM":     b64([]byte(b64(edPEM))),
		"base64 of a PEM, mid-sentence": "Load it from " + b64(edPEM) + " at start-up.",
		"base64 of a PEM, then words":   b64(edPEM) + " before you start.",
		"base64 of a JWK, then a word":  b64([]byte(jwk)) + " thanks",
		"PEM body wrapped with spaces":  wrap(body, 64, " "),
		"PEM body wrapped with tabs":    wrap(body, 64, "\t"),
		"PEM body wrapped, indented":    "key:\n    " + wrap(body, 64, "\n    "),
		"base64url of a private JWK":    url([]byte(jwk)),
		"upper-case JWK":                `{"KTY":"OKP","CRV":"Ed25519","D":"` + seed + `"}`,
		"mixed-case JWK members":        `{"Kty":"OKP","d":"x","X":"y"}`,
		"upper-case private member":     `{"kty":"OKP","D":"` + seed + `"}`,
	} {
		t.Run(name, func(t *testing.T) {
			if f, ok := InText(text); !ok {
				t.Errorf("missed (%d bytes)", len(text))
			} else if f.Kind == "" {
				t.Errorf("no kind: %+v", f)
			}
		})
	}
	if !IsPrivateJWK(map[string]any{"KTY": "OKP", "D": seed}) {
		t.Error("IsPrivateJWK misses upper-case members")
	}
	if IsPrivateJWK(map[string]any{"KTY": "OKP", "X": seed}) {
		t.Error("IsPrivateJWK calls a public key private")
	}
}

// TestInPartsJoinsElements: a PEM body or JWT split across an array's
// elements is found joined; elements that hold nothing together pass.
func TestInPartsJoinsElements(t *testing.T) {
	k := testKeys()
	body := base64.StdEncoding.EncodeToString(pkcs8(t, k.rsa))
	var lines []string
	for i := 0; i < len(body); i += 64 {
		lines = append(lines, body[i:min(i+64, len(body))])
	}
	if _, ok := InParts(lines); !ok {
		t.Error("missed a PEM body split across elements")
	}
	if _, ok := InParts([]string{"eyJhbGciOiJIUzI1NiJ9", "eyJzdWIiOiIxMjM0NTY3ODkwIn0", "dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk"}); !ok {
		t.Error("missed a JWT split across elements")
	}
	for _, parts := range [][]string{
		{"travel", "booking", "visa rules", "multi-city"},
		{"e30", "e30", "e30"},
		{"eyJhbGciOiJIUzI1NiJ9", "short"},
	} {
		if f, ok := InParts(parts); ok {
			t.Errorf("%q: flagged %+v", parts, f)
		}
	}
}

// TestInTextFindsURLCredentials: credentials in URLs and connection
// strings (A2), which lint reports (InURLs).
func TestInTextFindsURLCredentials(t *testing.T) {
	hex32 := "8f14e45fceea167a5a36dedd4bea2543"
	for _, text := range []string{
		"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + b64s(hex32+hex32) + ";EndpointSuffix=core.windows.net",
		"Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=" + b64s(hex32),
		"Server=tcp:db.example.com,1433;Database=prod;User Id=sa;Password=Hunter2024;",
		"https://hooks.slack.com/services/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",
		"POST to https://discord.com/api/webhooks/123456789012345678/q8Jf3kLm9Zx2Rt7Wv4Yp1Nb6q8Jf3kLm9Zx2Rt7Wv4Yp1Nb6qa",
		"https://api.telegram.org/bot1234567890:AAH4k9Xq2Lm8Zr7Tv3Wy6Pb1Nc5Jd0Fs9Ge/sendMessage",
		"https://api.example.com/v1?user=ann&pass=Hunter2024",
		"https://api.openweathermap.org/data/2.5/weather?q=Oslo&appid=" + hex32,
		"https://app.example.com/view?sid=" + hex32,
		"https://app.example.com/cart;jsessionid=" + strings.ToUpper(hex32) + "?item=4",
		"https://" + hex32 + "@api.example.com/",
		"admin:Hunter2024@db.example.com:5432/prod",
		"connect with postgres://svc:Xk82-pq9z@10.0.0.5/app",
		"https://api.example.com/cb#access_token=ya2b3c4d5e6f7g8h9",
	} {
		if _, ok := InURLs(text); !ok {
			t.Errorf("missed %q", text)
		}
	}
}

func b64s(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// TestInTextLeavesBenignAlone: what the new detectors must not flag.
func TestInTextLeavesBenignAlone(t *testing.T) {
	for _, text := range []string{
		"https://api.example.com/v1?pageToken=CAESBggBEAEYAQ&pass_through=true",
		"https://api.example.com/v1?api_key=<your key>",
		"postgres://user:password@host/db",
		"mailto:ann.lee2@example.com",
		"SameSite=Lax; Secure; Path=/; Max-Age=3600",
		"Meet at 10:30@the venue",
		"git@github.com:agentcards/agentcards.git",
		"projects/my-proj-42/secrets/api-key-2/versions/7",
		"NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs",
		b64s(`{"offset":50,"limit":100,"filter":"status = 'open'"}`),
		b64s("Plans multi-city trips and books hotels for travellers everywhere."),
		"data:image/svg+xml;base64," + b64s(`<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle r="8"/></svg>`),
		"Server=db.example.com;Database=prod;Trusted_Connection=True;",
		"https://app.example.com/view?sid=42",
		"https://docs.example.com/guide?version=2024-08-06&lang=en",
		"eyJhbGciOiJIUzI1NiJ9 and eyJzdWIiOiIxMjM0In0 are base64 of JSON.",
	} {
		if f, ok := InText(text); ok {
			t.Errorf("%q: flagged %+v", text, f)
		}
		if f, ok := InURLs(text); ok {
			t.Errorf("%q: InURLs flagged %+v", text, f)
		}
	}
}

// TestAPITokenFormats: the token formats A3 of the review published.
func TestAPITokenFormats(t *testing.T) {
	hex32 := "8f14e45fceea167a5a36dedd4bea2543"
	for _, tok := range []string{
		"pypi-AgEIcHlwaS5vcmcCJDkzNjE0ZTE1LTlhNTctNDQ4My1iOWYzLWQ5YzFkYTA2ZWI2ZAACKlszLCJiMWY3",
		"dop_v1_" + hex32 + hex32,
		"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",
		"1//0gLk2mZ9xQ7rT3vW8yB1nC5dF6hJ4kL0pS2uX9zA3eG7iO1qR5tY8wE",
		"abc8Q~Xy9Zk2Lm4Nq7Rt1Vw3Yb6Cd8Ef0Gh2Ij4Kl",
		"SK" + hex32,
		"key-" + hex32,
		"dapi" + hex32,
		"hvs.CAESIJ2kq8Lm4Nq7Rt1Vw3Yb6Cd8Ef0Gh2Ij4KlMn",
		"ATATT3xFfGF0q8Jf3kLm9Zx2Rt7Wv4Yp1Nb6q8Jf3kLm9Zx2Rt7Wv4Yp1Nb6=A1B2C3D4",
		"sntrys_eyJpYXQiOjE3MDAwMDAwMDAsInVybCI6Imh0dHBzOi8vc2VudHJ5LmlvIn0_q8Jf3kLm9Zx2Rt7Wv4",
		"lin_api_q8Jf3kLm9Zx2Rt7Wv4Yp1Nb6q8Jf3kLm9Zx2Rt7W",
		"PMAK-65a1b2c3d4e5f6a7b8c9d0e1-" + hex32 + "ab",
		"MTIzNDU2Nzg5MDEyMzQ1Njc4.GhX2Qa.q8Jf3kLm9Zx2Rt7Wv4Yp1Nb6q8Jf3kLm9Zx2Rt",
		"1234567890:AAH4k9Xq2Lm8Zr7Tv3Wy6Pb1Nc5Jd0Fs9Ge",
		"eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..48V1_ALb6US04U3b.5eym8TW_c8SuK0ltJ3rpYIzOeDQz7TALvtu6UG9oMo4.XFBoMYUZodetZdvTiFvSkQ",
		"eyJhbGciOiJIUzI1NiJ9 . eyJzdWIiOiIxMjM0NTY3ODkwIn0 . dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk",
		"eyJhbGciOiJIUzI1NiJ9.\neyJzdWIiOiIxMjM0NTY3ODkwIn0.\ndBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk",
	} {
		if APIToken("token: "+tok+" (test)") == "" {
			t.Errorf("missed %q", tok)
		}
	}
	for _, s := range []string{
		"SKU-1234 ships in 2 days; key-value stores; dapi is a word.",
		"Version 1.2.3. Build 20240806. See docs.example.com/a/b.",
		"Mailbox.example.company.organisation.with.many.parts.example",
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
	} {
		if m := APIToken(s); m != "" {
			t.Errorf("%q: flagged %q", s, m)
		}
	}
}

// TestCredentialNames: names the review published (A4) are credential
// names; names that describe a credential or a cursor (A6) are not.
func TestCredentialNames(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		want        bool
	}{
		{"api key", "8f14e45fceea167a5a36dedd4bea2543", true},
		{"api\u2010key", "8f14e45fceea167a5a36dedd4bea2543", true},
		{"api\u00a0key", "8f14e45fceea167a5a36dedd4bea2543", true},
		{"pass word", "hunter22", true},
		{"Kennwort", "Hunter2024", true},
		{"wachtwoord", "Hunter2024", true},
		{"データベースパスワード", "Hunter2024", true},
		{"sessionid", "8f14e45fceea167a5a36dedd4bea2543", true},
		{"PHPSESSID", "q2l8v0r5c3k9m1n7b4x6z8a0s2", true},
		{"backup_codes", "8f3k-29dk-xm2p", true},
		{"pin", "4821", true},
		{"sim_pin", "482193", true},
		{"pin", "12", false},
		{"version_pin", "4821", false},
		{"resenha", "Hunter2024", false},
		{"pageToken", "CAESBggBEAEYAQ", false},
		{"syncToken", "k3J9xQ2mP8vL5nR7", false},
		{"tokenContract", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", false},
		{"client_secret_expiry", "2026-01-01", false},
		{"api_key_header", "X-API-Key", false},
		{"session_model", "gpt-4o-2024-08-06", false},
		{"secretValue", "build-2024-08-06-a1b2c3", false},
		{"password", "none", false},
		{"password", "hunter2hunter2", true},
	} {
		if got := HeldCredential(tc.name, tc.value); got != tc.want {
			t.Errorf("HeldCredential(%q, %q) = %v, want %v", tc.name, tc.value, got, tc.want)
		}
	}
}

// inPartsPlain is InParts as first written (744a631), each element by
// itself read first, then the elements joined: keep it so, it is the
// reference TestInPartsSameAsPlain holds InParts to.
func inPartsPlain(parts []string) (Finding, bool) {
	if len(parts) < 2 {
		return Finding{}, false
	}
	total := 0
	for _, p := range parts {
		total += len(p)
	}
	if total < minTextRun {
		return Finding{}, false
	}
	long := 0
	for _, p := range parts {
		if j := segmentEnd([]byte(p), 0); j >= minSegment || j == len(p) && j >= 8 {
			long++
		}
	}
	if long < 2 {
		return Finding{}, false
	}
	for _, p := range parts {
		if _, ok := InText(p); ok {
			return Finding{}, false
		}
	}
	if f, ok := InText(strings.Join(parts, "\n")); ok {
		f.Kind += " split across elements"
		return f, true
	}
	if (len(parts) == 3 || len(parts) == 5) && strings.HasPrefix(strings.TrimSpace(parts[0]), "eyJ") {
		trimmed := make([]string, len(parts))
		for i, p := range parts {
			trimmed[i] = strings.TrimSpace(p)
		}
		if APIToken(strings.Join(trimmed, ".")) != "" {
			return Finding{Kind: "JSON Web Token split across elements"}, true
		}
	}
	return Finding{}, false
}

// TestInPartsSameAsPlain: InParts, which reads the elements joined
// before each by itself, finds in every array what it did when it read
// each element first: key bodies split into lines (some whole keys
// among them), tokens split at their dots, and prose.
func TestInPartsSameAsPlain(t *testing.T) {
	k := testKeys()
	rsa := base64.StdEncoding.EncodeToString(pkcs8(t, k.rsa))
	pieces := []string{base64.StdEncoding.EncodeToString(pkcs8(t, k.ed)), base64.StdEncoding.EncodeToString(pkcs8(t, k.ec)),
		"eyJhbGciOiJIUzI1NiJ9", " eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", "eyJzdWIiOiIxMjM0NTY3ODkwIn0", "dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk",
		"Find the workflows of the easy team for this week.", "travel", "multi-city", "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=",
		"0123456789abcdef0123456789abcdef", "e30", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}
	for i := 0; i < len(rsa); i += 64 {
		pieces = append(pieces, rsa[i:min(i+64, len(rsa))])
	}
	var lines []string
	for i := 0; i < len(rsa); i += 64 {
		lines = append(lines, rsa[i:min(i+64, len(rsa))])
	}
	rng := rand.New(rand.NewPCG(31, 32))
	found := 0
	for n := range 4000 {
		var parts []string
		switch n % 4 {
		case 0: // a key body, now and then with a piece swapped for another
			parts = slices.Clone(lines)
			if rng.IntN(2) == 0 {
				parts[rng.IntN(len(parts))] = pieces[rng.IntN(len(pieces))]
			}
		default:
			for range 2 + rng.IntN(4) {
				parts = append(parts, pieces[rng.IntN(len(pieces))])
			}
		}
		f, ok := InParts(parts)
		wf, wok := inPartsPlain(parts)
		if f != wf || ok != wok {
			t.Fatalf("InParts(%q) = %+v, %v; want %+v, %v", parts, f, ok, wf, wok)
		}
		if ok {
			found++
		}
	}
	if found < 100 {
		t.Fatalf("only %d arrays held a credential", found)
	}
}
