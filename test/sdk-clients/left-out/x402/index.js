throw new Error(
  "x402 is left out of test/sdk-clients' install (package.json overrides: thirdweb's payments, which no SDK client test uses); a test that needs it must drop the override",
)
