package lint_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"strings"
	"testing"
)

// wrapLines cuts s into pieces of n characters.
func wrapLines(s string, n int) []string {
	var out []string
	for i := 0; i < len(s); i += n {
		out = append(out, s[i:min(i+n, len(s))])
	}
	return out
}

// attackRows are the params members of issue 26's third attack review
// on credentials (A1 to A4, each published by the build before), which
// lint reports and the manifest refuses, and its benign members (A6),
// which both pass.
func attackRows(t *testing.T) []vocabRow {
	t.Helper()
	pub, edKey, _ := ed25519.GenerateKey(rand.Reader)
	rsaKey, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	ed8, _ := x509.MarshalPKCS8PrivateKey(edKey)
	rsa8, _ := x509.MarshalPKCS8PrivateKey(rsaKey)
	edPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: ed8})
	rsaPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: rsa8})
	gcp, _ := json.Marshal(map[string]string{"type": "service_account", "project_id": "demo-42", "private_key_id": "3f9a8b7c",
		"private_key": string(rsaPEM), "client_email": "bot@demo-42.iam.gserviceaccount.com"})
	body := base64.StdEncoding.EncodeToString(x509.MarshalPKCS1PrivateKey(rsaKey))
	b64url := base64.RawURLEncoding.EncodeToString
	jwk := `{"kty":"OKP","crv":"Ed25519","x":"` + b64url(pub) + `","d":"` + b64url(edKey.Seed()) + `"}`
	lines := func(s string) []any {
		var out []any
		for _, l := range wrapLines(s, 64) {
			out = append(out, l)
		}
		return out
	}
	hex32 := "8f14e45fceea167a5a36dedd4bea2543"
	rows := []vocabRow{
		// A1: private keys in common encodings.
		{"blob", base64.StdEncoding.EncodeToString(edPEM), true, true},
		{"sa", base64.StdEncoding.EncodeToString(gcp), true, true},
		{"blob", strings.Join(wrapLines(body, 64), " "), true, true},
		{"blob", strings.Join(wrapLines(body, 64), "\t"), true, true},
		{"blob", lines(body), true, true},
		{"blob", b64url([]byte(jwk)), true, true},
		{"jwk", `{"KTY":"OKP","CRV":"Ed25519","X":"` + b64url(pub) + `","D":"` + b64url(edKey.Seed()) + `"}`, true, true},
		{"jwk", `{"kty":"OKP","crv":"Ed25519","x":"` + b64url(pub) + `","D":"` + b64url(edKey.Seed()) + `"}`, true, true},
		// A2: connection strings and secret URLs. Lint reports them, so
		// the build fails; the manifest does not refuse them outright, as
		// it does key material, so that a reason in the manifest can
		// silence a finding that is none (build_lint_credential.txtar).
		{"conn", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + base64.StdEncoding.EncodeToString([]byte(hex32+hex32)) + ";EndpointSuffix=core.windows.net", true, false},
		{"conn", "Server=tcp:db.example.com,1433;Database=prod;User Id=sa;Password=Hunter2024;", true, false},
		{"hook", "https://hooks.slack.com/services/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", true, false},
		{"hook", "https://discord.com/api/webhooks/123456789012345678/q8Jf3kLm9Zx2Rt7Wv4Yp1Nb6q8Jf3kLm9Zx2Rt7Wv4Yp1Nb6q8Jf3kLm9Zx2Rt7Wv4Yp1Nb6ab", true, false},
		{"hook", "https://api.telegram.org/bot1234567890:AAH4k9Xq2Lm8Zr7Tv3Wy6Pb1Nc5Jd0Fs9Ge/sendMessage", true, false},
		{"endpoint", "https://api.example.com/v1?user=ann&pass=Hunter2024", true, false},
		{"endpoint", "https://api.openweathermap.org/data/2.5/weather?q=Oslo&appid=" + hex32, true, false},
		{"endpoint", "https://app.example.com/view?sid=" + hex32, true, false},
		{"endpoint", "https://app.example.com/cart;jsessionid=" + strings.ToUpper(hex32) + "?item=4", true, false},
		{"endpoint", "https://" + hex32 + "@api.example.com/", true, false},
		{"db", "admin:Hunter2024@db.example.com:5432/prod", true, false},
		// A3: token formats.
		{"note", "pypi-AgEIcHlwaS5vcmcCJDkzNjE0ZTE1LTlhNTctNDQ4My1iOWYzLWQ5YzFkYTA2ZWI2ZAACKlszLCJiMWY3", true, true},
		{"note", "dop_v1_" + hex32 + hex32, true, true},
		{"note", "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", true, true},
		{"note", "1//0gLk2mZ9xQ7rT3vW8yB1nC5dF6hJ4kL0pS2uX9zA3eG7iO1qR5tY8wE", true, true},
		{"note", "abc8Q~Xy9Zk2Lm4Nq7Rt1Vw3Yb6Cd8Ef0Gh2Ij4Kl", true, true},
		{"note", "SK" + hex32, true, true},
		{"note", "key-" + hex32, true, true},
		{"note", "dapi" + hex32, true, true},
		{"note", "hvs.CAESIJ2kq8Lm4Nq7Rt1Vw3Yb6Cd8Ef0Gh2Ij4KlMn", true, true},
		{"note", "ATATT3xFfGF0q8Jf3kLm9Zx2Rt7Wv4Yp1Nb6q8Jf3kLm9Zx2Rt7Wv4Yp1Nb6=A1B2C3D4", true, true},
		{"note", "sntrys_eyJpYXQiOjE3MDAwMDAwMDAsInVybCI6Imh0dHBzOi8vc2VudHJ5LmlvIn0_q8Jf3kLm9Zx2Rt7Wv4", true, true},
		{"note", "lin_api_q8Jf3kLm9Zx2Rt7Wv4Yp1Nb6q8Jf3kLm9Zx2Rt7W", true, true},
		{"note", "PMAK-65a1b2c3d4e5f6a7b8c9d0e1-" + hex32 + "ab", true, true},
		{"note", "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhX2Qa.q8Jf3kLm9Zx2Rt7Wv4Yp1Nb6q8Jf3kLm9Zx2Rt", true, true},
		{"note", "1234567890:AAH4k9Xq2Lm8Zr7Tv3Wy6Pb1Nc5Jd0Fs9Ge", true, true},
		{"note", "eyJhbGciOiJSU0EtT0FFUCIsImVuYyI6IkEyNTZHQ00ifQ.OKOawDo13gRp2ojaHV7LFpZcgV7T6DVZKTyKOMTYUmKo.48V1_ALb6US04U3b.5eym8TW_c8SuK0ltJ3rpYIzOeDQz7TALvtu6UG9oMo4vpzs9tX_EFShS8iB7j6jiSdiwkIr3ajwQzaBtQD_A.XFBoMYUZodetZdvTiFvSkQ", true, true},
		{"note", "eyJhbGciOiJIUzI1NiJ9 . eyJzdWIiOiIxMjM0NTY3ODkwIn0 . dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk", true, true},
		{"parts", []any{"eyJhbGciOiJIUzI1NiJ9", "eyJzdWIiOiIxMjM0NTY3ODkwIn0", "dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk"}, true, true},
		// A4: names.
		{"api key", hex32, true, true},
		{"pass word", "hunter22", true, true},
		{"api\u2010key", hex32, true, true},
		{"Passwort", "Hunter2024", true, true},
		{"contraseña", "Hunter2024", true, true},
		{"パスワード", "Hunter2024", true, true},
		{"mot_de_passe", "Hunter2024", true, true},
		{"senha", "Hunter2024", true, true},
		{"hasło", "Hunter2024", true, true},
		{"пароль", "Hunter2024", true, true},
		{"密码", "Hunter2024", true, true},
		{"db_senha", "Hunter2024", true, true},
		{"sessionid", hex32, true, true},
		{"PHPSESSID", "q2l8v0r5c3k9m1n7b4x6z8a0s2", true, true},
		{"recovery_codes", []any{"8f3k-29dk-xm2p", "7s2m-4kq9-zt6w"}, true, true},
		{"pin", "4821", true, true},
		// A6: benign members pass both.
		{"pageToken", "CAESBggBEAEYAQ", false, false},
		{"nextPageToken", "eyJvZmZzZXQiOjUwfQ", false, false},
		{"continuationToken", "c2VjdGlvbjo0Mjpyb3c6MTAw", false, false},
		{"tokenContract", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", false, false},
		{"auth_tenant", "72f988bf-86f1-41af-91ab-2d7cd011db47", false, false},
		{"auth_client_id", "0oa1b2c3d4e5f6g7h8i9", false, false},
		{"signingKeyId", "a3f9c2e1b7d4", false, false},
		{"signing_key_thumbprint", "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs", false, false},
		{"secretRef", "projects/my-proj-42/secrets/api-key-2/versions/7", false, false},
		{"session_model", "gpt-4o-2024-08-06", false, false},
		{"resenha", "Hunter2024", false, false},
		{"endpoint", "https://api.example.com/v1?pageToken=CAESBggBEAEYAQ&pass_through=true", false, false},
		{"contact", "mailto:ann.lee2@example.com", false, false},
		{"cookiePolicy", "SameSite=Lax; Secure; Path=/", false, false},
		{"pin_version", "1234", false, false},
	}
	return rows
}
