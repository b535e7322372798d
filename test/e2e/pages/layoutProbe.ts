import type { Page } from '@playwright/test'

/** A piece of text the reader cannot see whole. */
export type ClippedText = {
  /** The element's data-testid, else its tag and class. */
  element: string
  text: string
  /** What is wrong: `clipped` (cut by its box), `broken word`, `select narrower than its options`, `overflows its row`. */
  problem: string
  /** Numbers behind the verdict, e.g. "scrollWidth 131 > clientWidth 100". */
  detail: string
}

/**
 * Looks for text that is cut off inside the elements matching `selector`, the way a reader at this window
 * width would see it (what a closed <details> holds is not looked at):
 * - an element that hides its overflow (a table cell with an ellipsis, a table body that scrolls sideways, …)
 *   with more content than room (scrollWidth > clientWidth), unless the full text is on hover (a `title` on it
 *   or on its only child);
 * - a word split over two lines, as an auto table squeezes a "31337" column into "3133/7" (outside `code`,
 *   where long hex values and URLs wrap by design, as do addresses in running text; a break after a hyphen or
 *   a slash is fine);
 * - a `<select>` narrower than its longest option, whose chosen text the browser cuts;
 * - a virtual table's cell taller than its fixed-height row (its second line spills over the next row).
 */
export async function clippedText(page: Page, selector: string): Promise<ClippedText[]> {
  // Runs in the page. The tests' TypeScript has no DOM library, so page objects are typed loosely here.
  return page.evaluate((sel) => {
    const doc: any = (globalThis as any).document
    const found: ClippedText[] = []
    const name = (el: any): string =>
      el.getAttribute('data-testid') ??
      `${el.tagName.toLowerCase()}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}`
    const visible = (el: any): boolean => el.getClientRects().length > 0
    /** Inside a closed <details> (not its summary): laid out, yet not shown. */
    const folded = (el: any): boolean => {
      const details = el.closest('details:not([open])')
      return details !== null && el.closest('summary')?.parentElement !== details
    }
    const textOf = (el: any): string =>
      String(el.textContent ?? '')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 120)

    /** The width a select needs for its longest option: a copy of it left free to size itself. */
    const naturalSelectWidth = (select: any): number => {
      const copy = select.cloneNode(true)
      copy.style.cssText =
        'position:absolute;visibility:hidden;width:auto;min-width:0;max-width:none;flex:none'
      doc.body.appendChild(copy)
      const width: number = copy.getBoundingClientRect().width
      copy.remove()
      return width
    }

    for (const root of doc.querySelectorAll(sel)) {
      for (const el of [root, ...root.querySelectorAll('*')]) {
        if (!visible(el) || folded(el)) continue
        const tag = String(el.tagName)
        if (tag === 'SELECT') {
          const need = naturalSelectWidth(el)
          const have: number = el.getBoundingClientRect().width
          if (have + 0.5 < need)
            found.push({
              element: name(el),
              text: [...el.options].map((o: any) => o.text).join(' | '),
              problem: 'select narrower than its options',
              detail: `width ${have.toFixed(1)} < ${need.toFixed(1)} needed`,
            })
          continue
        }
        if (['TEXTAREA', 'INPUT', 'PRE', 'svg'].includes(tag) || el.closest('svg')) continue
        const style = (globalThis as any).getComputedStyle(el)
        // hidden or clip cut the text; auto or scroll hide it behind a scroll bar (code blocks, in <pre>, may)
        const hides = (v: string) => v !== 'visible'
        const onHover =
          el.hasAttribute('title') || (el.children.length === 1 && el.children[0].hasAttribute('title'))
        if (hides(style.overflowX) && el.scrollWidth > el.clientWidth + 1 && !onHover)
          found.push({
            element: name(el),
            text: textOf(el),
            problem: 'clipped',
            detail: `scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth}`,
          })
        if (el.classList.contains('vtable-row')) {
          const rowHeight: number = el.getBoundingClientRect().height
          for (const cell of el.children) {
            const h: number = cell.getBoundingClientRect().height
            if (h > rowHeight + 1)
              found.push({
                element: name(cell),
                text: textOf(cell),
                problem: 'overflows its row',
                detail: `cell height ${h.toFixed(1)} > row height ${rowHeight.toFixed(1)}`,
              })
          }
        }
      }

      const SHOW_TEXT = 4
      /** Addresses and hashes in running text wrap anywhere by design. */
      const HEX = /0x[0-9a-fA-F]{8,}/
      const walker = doc.createTreeWalker(root, SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement
        if (!parent || !visible(parent) || folded(parent)) continue
        if (parent.closest('code, pre, textarea, select, option, script, style, svg, .mono')) continue
        const text = String(node.textContent ?? '')
        for (const word of text.matchAll(/[^\s/-]+/g)) {
          const at = word.index ?? 0
          const range = doc.createRange()
          range.setStart(node, at)
          range.setEnd(node, at + word[0].length)
          const tops = new Set(
            [...range.getClientRects()].filter((r: any) => r.width > 0).map((r: any) => Math.round(r.top)),
          )
          if (tops.size > 1 && !HEX.test(word[0]))
            found.push({
              element: name(parent),
              text: word[0],
              problem: 'broken word',
              detail: `on ${tops.size} lines`,
            })
        }
      }
    }
    return found
  }, selector)
}

/** The page scrolls sideways: something is wider than the window. */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = (globalThis as any).document.documentElement
    return root.scrollWidth - root.clientWidth
  })
}
