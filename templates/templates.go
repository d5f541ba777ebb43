// Package templates embeds the html/template files the site is rendered
// with.
package templates

import (
	"embed"
	"html/template"
)

//go:embed *.html
var files embed.FS

// Parse returns every embedded template, each named by its file name.
func Parse() (*template.Template, error) {
	return template.ParseFS(files, "*.html")
}
