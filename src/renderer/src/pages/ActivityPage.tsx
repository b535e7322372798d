export function ActivityPage({ selected }: { selected: string | null }) {
  return <div className="page">Activity {selected}</div>
}
