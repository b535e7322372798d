import type { Address } from 'viem'

/** Canonical addresses (biconomy-protocol.md section 3; the SDK and viem hard-code them). */
export const canonicalAddresses = {
  /** Deterministic deployment proxy (Arachnid); anvil predeploys it. */
  create2Deployer: '0x4e59b44847b379578588920ca78fbf26c0b4956c',
  entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
  /** v0.6 SimpleAccountFactory as CREATE2(deployer, salt 0, bytecode ‖ abi.encode(entryPoint)). */
  simpleAccountFactory: '0x9406Cc6185a346906296840746125a0E44976454',
  smartAccountFactory: '0x000000a56Aaca3e9a4C479ea6b6CD0DbcB6634F5',
  smartAccountImplementation: '0x0000002512019Dafb59528B82CB92D3c5D2423aC',
  fallbackHandler: '0x0bBa6d96BD616BedC6BFaa341742FD43c60b83C1',
  ecdsaModule: '0x0000001c5b32F37F5beA87BDD5374eB2aC54eA8e',
  verifyingPaymaster: '0x00000f79B7FaF42EEBAdbA19aCc07cD08Af44789',
  tokenPaymaster: '0x00000f7365cA6C59A2C93719ad53d567ed49c14C',
  /** v0.7 EntryPoint: CREATE2(deployer, entryPointSalts.v07, bytecode of @account-abstraction/contracts@0.7.0). */
  entryPointV07: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  /** v0.7 SimpleAccountFactory: CREATE2(deployer, salt 0, bytecode ‖ abi.encode(entryPointV07)). */
  simpleAccountFactoryV07: '0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985',
  /** v0.8 EntryPoint: CREATE2(deployer, entryPointSalts.v08, bytecode of @account-abstraction/contracts@0.8.0). */
  entryPointV08: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
  /** v0.8 SimpleAccountFactory: CREATE2(deployer, salt 0, bytecode ‖ abi.encode(entryPointV08)). */
  simpleAccountFactoryV08: '0x13E9ed32155810FDbd067D4522C492D6f68E5944',
  /** v0.8 Simple7702Account (viem's toSimple7702SmartAccount delegates to it): CREATE2(deployer, salt 0, bytecode). */
  simple7702AccountV08: '0xe6Cae83BdE06E4c305530e199D7217f42808555B',
  /** v0.9 EntryPoint: CREATE2(deployer, its release salt, the v0.9.0 creation code; artifacts/v09/entryPointV09.ts). */
  entryPointV09: '0x433709009B8330FDa32311DF1C2AFA402eD8D009',
  /** v0.9 SenderCreator: the EntryPoint constructor's first CREATE. */
  senderCreatorV09: '0x0A630a99Df908A81115A3022927Be82f9299987e',
  /** v0.9 Simple7702Account: CREATE2(deployer, salt 0, bytecode ‖ abi.encode(entryPointV09)). */
  simple7702AccountV09: '0xa46cc63eBF4Bd77888AA327837d20b23A63a56B5',
} as const satisfies Record<string, Address>

/** The published CREATE2 salts of the v0.7 and v0.8 EntryPoints (eth-infinitism's deployment scripts). */
export const entryPointSalts = {
  v07: '0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3',
  v08: '0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9',
} as const

/**
 * Runtime code of the deterministic deployment proxy (github.com/Arachnid/deterministic-deployment-proxy):
 * calldata = salt (32 bytes) ‖ init code; returns the 20-byte address of the created contract.
 */
export const create2DeployerRuntimeCode =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3' as const

/** Test ERC20 tokens deployed on every chain (CREATE2, salt 0: same address everywhere). */
export const testTokens = [
  { name: 'Test USD Coin', symbol: 'tUSDC', decimals: 6 },
  { name: 'Test DAI', symbol: 'tDAI', decimals: 18 },
] as const

export const defaults = {
  chainId: 31337,
  /** Gas tank funding per dApp on a local chain. */
  gasTankWei: 10n * 10n ** 18n,
  /** Token paymaster's own EntryPoint deposit (topped up when below half of it). */
  tokenPaymasterDepositWei: 10n * 10n ** 18n,
  /** Stake of each paymaster and the SA v2 factory on the EntryPoint. */
  stakeWei: 1n * 10n ** 18n,
  /** Unstake delay of those stakes (ERC-7562 needs at least 1 day). */
  unstakeDelaySec: 86_400,
  /** ETH given to the executor on dev chains (topped up when below a tenth of it). */
  executorBalanceWei: 10_000n * 10n ** 18n,
  /**
   * anvil's own periodic dump (to its exit dump, adoptExitDump), the backstop for an anvil left running without the
   * service, which saves the state shortly after each change (startStateSaver). Not more often: every dump
   * serializes the chain's whole history.
   */
  stateIntervalSec: 60,
  /** Block gas limit of the embedded anvil (large bundles and simulations fit). */
  blockGasLimit: 100_000_000n,
} as const
