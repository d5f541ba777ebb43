// Package lintrule names the rules of `agentcards lint`: the ids that a
// finding carries and that an agent's [agents.lint.silence] table names.
// It holds the names only, so that the manifest can check a silence table
// without importing the linter; package lint says what each rule finds,
// how severe it is, and applies it.
package lintrule

import "slices"

// Rule ids.
const (
	PromptInjection    = "prompt-injection"
	HiddenText         = "hidden-text"
	ConfusableText     = "confusable-text"
	PrivateEndpoint    = "private-endpoint"
	InsecureEndpoint   = "insecure-endpoint"
	NoSecurity         = "no-security"
	CredentialInCard   = "credential-in-card"
	SkillNoExamples    = "skill-no-examples"
	DescriptionShort   = "description-too-short"
	DescriptionLong    = "description-too-long"
	DuplicateSkillID   = "duplicate-skill-id"
	SkillNoTags        = "skill-no-tags"
	DuplicateTag       = "duplicate-tag"
	TagCase            = "tag-case"
	DuplicateSkillDesc = "duplicate-skill-description"
	NoProvider         = "no-provider"
	NoDocumentationURL = "no-documentation-url"
	VersionNotSemver   = "version-not-semver"
)

// ids is every rule id, safety rules first: the order in which lint lists
// its rules.
var ids = []string{
	PromptInjection, HiddenText, ConfusableText, PrivateEndpoint, InsecureEndpoint, NoSecurity, CredentialInCard,
	SkillNoExamples, DescriptionShort, DescriptionLong, DuplicateSkillID, SkillNoTags, DuplicateTag, TagCase,
	DuplicateSkillDesc, NoProvider, NoDocumentationURL, VersionNotSemver,
}

// IDs lists every rule id, in the order lint lists its rules (safety
// first).
func IDs() []string { return slices.Clone(ids) }

// Known reports whether id names a rule.
func Known(id string) bool { return slices.Contains(ids, id) }
