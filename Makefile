# ALSA rawmidi timing series: apply, build, boot, test, benchmark.
# See README.md. Everything is built under build/ (git-ignored).

.PHONY: all deps demo check tree export mail bench clean help
all: help

help:
	@echo "make demo    apply the series, build, boot the patched kernel, show the features"
	@echo "make check   all checks (series round trip, checkpatch, W=1/sparse, kernel-doc,"
	@echo "             per-patch builds, KUnit + kselftests + real clients in QEMU)"
	@echo "make tree    create build/linux branch 'series' = base + patches/ (FORCE=1 to redo),"
	@echo "             each posting ending at a branch series.POSTING (its cover letter)"
	@echo "make export  regenerate patches/ from build/linux branch 'series'"
	@echo "make mail FROM='Name <address>'  mail-ready postings in build/mail, sent and"
	@echo "             signed off by that person"
	@echo "make bench   base vs patched kernel (and patched on PREEMPT_RT), side by side, idle and loaded;"
	@echo "             KERNELS=\"base patched\" for those two only"
	@echo "make clean   remove build/"

deps:
	@scripts/deps.sh

demo: deps
	@scripts/demo.sh

check: deps
	@scripts/check.sh

tree:
	@if git -C build/linux rev-parse -q --verify refs/heads/series >/dev/null 2>&1 && \
	    [ -z "$(FORCE)" ]; then \
		echo "build/linux already has branch 'series' (FORCE=1 recreates it from patches/)"; \
	else scripts/apply.sh series; fi

export:
	@scripts/export.sh series

mail:
	@scripts/mail.sh "$(FROM)"

clean:
	rm -rf build results

bench: deps
	@scripts/bench.sh
