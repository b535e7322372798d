import { existsSync } from 'node:fs'
import path from 'node:path'
import type { NativeImage } from 'electron'
import { findPackageRoot } from '../service/util/packageRoot'
import type { DesktopElectron } from './electronApi'

/**
 * The tray image: build/icon.png resized when the package has it (a development checkout), else a drawn 16×16 dot
 * in the console's accent colour (packages ship out/** only).
 */
export function createTrayIcon(electron: Pick<DesktopElectron, 'nativeImage'>): NativeImage {
  try {
    const file = path.join(findPackageRoot(), 'build', 'icon.png')
    if (existsSync(file)) {
      const image = electron.nativeImage.createFromPath(file)
      if (!image.isEmpty()) return image.resize({ width: 16, height: 16 })
    }
  } catch {}
  const size = 16
  const pixels = Buffer.alloc(size * size * 4)
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const inside = (x - 7.5) ** 2 + (y - 7.5) ** 2 <= 7 ** 2
      // BGRA: #4f46e5 (indigo).
      pixels.set(inside ? [0xe5, 0x46, 0x4f, 0xff] : [0, 0, 0, 0], (y * size + x) * 4)
    }
  }
  return electron.nativeImage.createFromBitmap(pixels, { width: size, height: size })
}
