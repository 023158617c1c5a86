/*
 * cmocka fixtures shared by the CPU tests: a CPU context (default thread
 * count) in *state, for one test (RT_TEST_WITH_CPU_CTX) or a whole group
 * (cmocka_run_group_tests).
 */
#ifndef RT_TEST_CTX_H
#define RT_TEST_CTX_H

/* Creates the context into *state; -1 (group setup failure) if it cannot. */
int rt_test_cpu_ctx_setup(void **state);
/* Destroys the context in *state. */
int rt_test_cpu_ctx_teardown(void **state);

/* A CMUnitTest row running `test` with a fresh CPU context in *state. */
#define RT_TEST_WITH_CPU_CTX(test)                                                                 \
    cmocka_unit_test_setup_teardown(test, rt_test_cpu_ctx_setup, rt_test_cpu_ctx_teardown)

#endif /* RT_TEST_CTX_H */
