"""The trusted side of the sandbox: start the fork server, open, watch and kill workers."""
