package cli

// AsMainEnv is asMainEnv for the tests of package cli_test, whose TestMain
// runs this test binary as the whole dealctl.
const AsMainEnv = asMainEnv
