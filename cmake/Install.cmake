# Install rules and package files (packaging issue).
