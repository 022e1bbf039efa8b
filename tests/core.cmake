# tests of src/core
strata_add_test(test_fileio test_fileio.c core)
strata_add_test(test_config test_config.c core)
strata_add_test(test_rng test_rng.c core)
strata_add_test(test_range_alloc test_range_alloc.c core)
strata_add_test(test_noise test_noise.c core)
strata_add_test(test_error test_error.c core)
strata_add_test(test_thread_priority test_thread_priority.c core)
strata_add_test(test_huge_pages test_huge_pages.c core)
