throw new Error(
  "@solana/web3.js is left out of test/sdk-clients' install (package.json overrides: alchemy-sdk's Solana client); a test that needs it must drop the override",
)
