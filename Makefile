# The two commands: `make run` (install, start everything, play a demo arena, keep serving) and `make test`.
.PHONY: run test

run:
	@bash scripts/run.sh

test:
	@bash scripts/test.sh
