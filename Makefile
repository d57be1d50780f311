# make install PREFIX=DIR / make uninstall PREFIX=DIR: the same as scripts/install and scripts/uninstall.
PREFIX ?= /usr/local

.PHONY: install uninstall
install:
	scripts/install --prefix "$(PREFIX)"
uninstall:
	scripts/uninstall --prefix "$(PREFIX)"
