module github.com/agentcards/agentcards

go 1.26.8

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/go-jose/go-jose/v4 v4.1.8
	github.com/gowebpki/jcs v1.0.2
)
