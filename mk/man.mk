# SPDX-License-Identifier: BSD-3-Clause
# q7pred(1), made from the help texts (their option lines from the option
# tables, src/tools/cli/options/*.def) by tools/man_page.py and committed
# (docs/q7pred.1), so that make install needs no Python. After editing a
# help text: make man (tests/test_man_page.sh fails until the page is
# made again). make install puts it under share/man/man1.
MAN_PAGE := docs/q7pred.1

.PHONY: man install-man
man: $(BUILD)/q7pred
	$(PYTHON) tools/man_page.py $(BUILD)/q7pred >$(MAN_PAGE).tmp && mv $(MAN_PAGE).tmp $(MAN_PAGE)

install: install-man
install-man:
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 $(MAN_PAGE) $(DESTDIR)$(PREFIX)/share/man/man1/q7pred.1
