import { getContractAddress, encodeAbiParameters, concat, pad } from 'viem'
import { entryPointArtifact, simpleAccountFactoryArtifact } from '../src/main/service/chain/artifacts'
const d = '0x4e59b44847b379578588920ca78fbf26c0b4956c'
console.log(getContractAddress({ opcode: 'CREATE2', from: d, salt: pad('0x00'), bytecode: entryPointArtifact.bytecode }))
console.log(getContractAddress({ opcode: 'CREATE2', from: d, salt: pad('0x00'), bytecode: concat([simpleAccountFactoryArtifact.bytecode, encodeAbiParameters([{type:'address'}], ['0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789'])]) }))
console.log(getContractAddress({ opcode: 'CREATE', from: '0x000000a56Aaca3e9a4C479ea6b6CD0DbcB6634F5', nonce: 1n }))
