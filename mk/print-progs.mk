# Included after a selftest Makefile: print the programs the suite runs.
print-progs:
	@echo $(TEST_GEN_PROGS)
