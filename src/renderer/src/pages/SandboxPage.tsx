export function SandboxPage() {
  return <div className="page">Sandbox</div>
}
