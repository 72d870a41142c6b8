# Hardening flags (security issue).
