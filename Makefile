# make install PREFIX=DIR / make uninstall PREFIX=DIR: the same as scripts/dev/install and scripts/dev/uninstall.
PREFIX ?= /usr/local

.PHONY: install uninstall
install:
	scripts/dev/install --prefix "$(PREFIX)"
uninstall:
	scripts/dev/uninstall --prefix "$(PREFIX)"
