throw new Error(
  "@coinbase/wallet-sdk is left out of test/sdk-clients' install (package.json overrides: thirdweb's Coinbase Wallet connector); a test that needs it must drop the override",
)
