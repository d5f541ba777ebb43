// This module builds the Go programs of README.md's "Verify from your own
// code" against the real libraries: cmd/agentcards/readme_clients_test.go
// copies each marked program into a folder of a copy of this module (with
// the replace below made absolute) and builds it. It is not part of the
// agentcards module.
module agentcards.example/clients

go 1.26.8

require (
	github.com/a2aproject/a2a-go/v2 v2.4.0
	github.com/agentcards/agentcards v0.0.0
)

require (
	github.com/go-jose/go-jose/v4 v4.1.8 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/gowebpki/jcs v1.0.2 // indirect
)

replace github.com/agentcards/agentcards => ../..
