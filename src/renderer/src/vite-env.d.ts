// Vite's client types: what the console's modules import besides code (its stylesheet, `import.meta.env`).
/// <reference types="vite/client" />
