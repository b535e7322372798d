import { describe, expect, it } from 'vitest'
import {
  getAnvilPackageName,
  resolveAnvilBinary,
} from '../../../src/main/service/chain/anvil/resolveAnvilBinary'

describe('resolveAnvilBinary', () => {
  it('maps node platform/arch to the @foundry-rs package names', () => {
    expect(getAnvilPackageName('linux', 'x64')).toBe('@foundry-rs/anvil-linux-amd64')
    expect(getAnvilPackageName('linux', 'arm64')).toBe('@foundry-rs/anvil-linux-arm64')
    expect(getAnvilPackageName('darwin', 'arm64')).toBe('@foundry-rs/anvil-darwin-arm64')
    expect(getAnvilPackageName('darwin', 'x64')).toBe('@foundry-rs/anvil-darwin-amd64')
    expect(getAnvilPackageName('win32', 'x64')).toBe('@foundry-rs/anvil-win32-amd64')
    expect(getAnvilPackageName('aix', 'ppc64')).toBeNull()
  })

  it('refuses a configured path that does not exist, naming it, rather than using another anvil', () => {
    expect(() => resolveAnvilBinary('/nonexistent/anvil')).toThrow(
      'The anvil binary /nonexistent/anvil (--anvil-path) is not an executable file',
    )
  })

  it('finds the installed npm package when no path is configured', () => {
    expect(resolveAnvilBinary()).toMatch(
      /@foundry-rs[/\\]anvil-[a-z0-9]+-[a-z0-9]+[/\\]bin[/\\]anvil(\.exe)?$/,
    )
  })

  it('uses a configured path that exists', () => {
    const installed = resolveAnvilBinary()
    expect(resolveAnvilBinary(installed)).toBe(installed)
  })
})
