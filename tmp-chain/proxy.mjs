import solc from 'solc'
import fs from 'node:fs'
const src = fs.readFileSync('node_modules/@biconomy-devx/account-contracts-v2/contracts/smart-account/Proxy.sol','utf8')
const sdk = (await import('/work/main/node_modules/@biconomy/account/dist/_esm/account/utils/Constants.js')).PROXY_CREATION_CODE
for (const variant of [
  {viaIR:true, optimizer:{enabled:true, runs:800}},
  {viaIR:true, optimizer:{enabled:true, runs:800}, evmVersion:'paris'},
  {viaIR:true, optimizer:{enabled:true, runs:200}},
]) {
  const input = {language:'Solidity', sources:{'contracts/smart-account/Proxy.sol':{content:src}}, settings:{...variant, outputSelection:{'*':{'*':['evm.bytecode.object','metadata']}}}}
  const out = JSON.parse(solc.compile(JSON.stringify(input)))
  const bc = '0x'+out.contracts['contracts/smart-account/Proxy.sol'].Proxy.evm.bytecode.object
  console.log(JSON.stringify(variant), bc.length, sdk.length, bc===sdk)
  if (bc!==sdk) { let i=0; while(bc[i]===sdk[i]) i++; console.log('first diff at', i, bc.slice(i-10,i+100), '\n', sdk.slice(i-10, i+100)) }
}
