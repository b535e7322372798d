import type { TestProject } from 'vitest/node'
import { type ChainTemplate, obtainChainTemplate } from '../helpers/chainTemplate'

/** Held on the main process' global: the projects that name this setup share one template per run. */
const holder = globalThis as { opstationChainTemplate?: { template: Promise<ChainTemplate>; users: number } }

/**
 * vitest globalSetup: builds the deployed chain once per run and provides its folder to the test files (the type of
 * `chainTemplate` is declared beside its reader, test/helpers/startTestService.ts, so every tsconfig that reads it
 * knows it).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  holder.opstationChainTemplate ??= { template: obtainChainTemplate(), users: 0 }
  const entry = holder.opstationChainTemplate
  entry.users++
  const template = await entry.template
  project.provide('chainTemplate', template.dir)
  return async () => {
    entry.users--
    if (entry.users > 0) return
    holder.opstationChainTemplate = undefined
    await template.remove()
  }
}
