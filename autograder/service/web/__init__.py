"""The web process: pages, the upload form and the API. It stores and shows; it never grades."""
