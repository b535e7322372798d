throw new Error(
  "@base-org/account is left out of test/sdk-clients' install (package.json overrides: thirdweb's Base Account wallet connector); a test that needs it must drop the override",
)
