package card

// ServerCard is an MCP Server Card (SEP-2127, the
// io.modelcontextprotocol/server-card extension; schema in
// modelcontextprotocol/experimental-ext-server-card). It describes a
// server and where to reach it; it lists no tools.
type ServerCard struct {
	Schema      string            `json:"$schema"`
	Name        string            `json:"name"`
	Version     string            `json:"version"`
	Description string            `json:"description"`
	Title       string            `json:"title,omitempty"`
	WebsiteURL  string            `json:"websiteUrl,omitempty"`
	Repository  *ServerRepository `json:"repository,omitempty"`
	Icons       []ServerIcon      `json:"icons,omitempty"`
	Remotes     []ServerRemote    `json:"remotes,omitempty"`
}

// ServerRepository is where a server's source lives.
type ServerRepository struct {
	URL       string `json:"url"`
	Source    string `json:"source"`
	Subfolder string `json:"subfolder,omitempty"`
	ID        string `json:"id,omitempty"`
}

// ServerIcon is an icon of the server.
type ServerIcon struct {
	Src      string   `json:"src"`
	MIMEType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"`
}

// ServerRemote is an endpoint of the server.
type ServerRemote struct {
	Type                      string         `json:"type"`
	URL                       string         `json:"url"`
	Headers                   []ServerHeader `json:"headers,omitempty"`
	SupportedProtocolVersions []string       `json:"supportedProtocolVersions,omitempty"`
}

// ServerHeader names a header clients send; the card never holds a value.
type ServerHeader struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	IsRequired  bool   `json:"isRequired,omitempty"`
	IsSecret    bool   `json:"isSecret,omitempty"`
}
