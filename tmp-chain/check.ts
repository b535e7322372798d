import * as a from '../src/main/service/chain/artifacts/index.js'
const f = a.smartAccountFactoryArtifact.deployedBytecode
const p = a.proxyArtifact.bytecode.slice(2)
console.log('occurrences', f.split(p).length - 1, 'sdk equal len', a.sdkProxyArtifact.creationCode.length === a.proxyArtifact.bytecode.length)
for (const [k, v] of Object.entries(a)) if ('deployedBytecode' in v) console.log(k, (v.deployedBytecode.length-2)/2, 'immutables' in v ? JSON.stringify(Object.fromEntries(Object.entries(v.immutables).map(([n, r]) => [n, r.length]))) : '', 'storage' in v ? v.storage.map(s=>s.label+':'+s.slot).join(',') : '')
