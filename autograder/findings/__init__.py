"""Findings as data: what a check found (a message key, its fields, a named mistake), and its
English and translated renderings. Rendered once, when shown, in the reader's language."""
