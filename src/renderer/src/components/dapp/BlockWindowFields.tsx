import {
  BLOCK_WINDOW_VERSIONS_NOTE,
  type BlockWindowPolicy,
  MIN_VALID_FOR_BLOCKS,
} from '../../../../shared/api/dapps'
import { Section } from '../Layout'

/** A new block window: each sponsorship valid for 20 blocks, no bounds. */
const NEW_BLOCK_WINDOW: BlockWindowPolicy = {
  validForBlocks: 20,
  validAfterBlock: null,
  validUntilBlock: null,
}

/** A block number bound of the window; empty is no bound. */
function BlockBound(props: {
  label: string
  least: number
  placeholder: string
  testId: string
  value: number | null
  onChange: (value: number | null) => void
}) {
  return (
    <label className="field">
      <span>{props.label}</span>
      <input
        type="number"
        min={props.least}
        step={1}
        placeholder={props.placeholder}
        data-testid={props.testId}
        value={props.value ?? ''}
        onChange={(e) => props.onChange(e.target.value.trim() === '' ? null : Number(e.target.value))}
      />
    </label>
  )
}

/**
 * The policy's block window (EntryPoint v0.9): sponsorships signed for a number of blocks instead of seconds, within
 * optional block bounds; older EntryPoints keep the time window, as the hint says.
 */
export function BlockWindowFields({
  value,
  onChange,
}: {
  value: BlockWindowPolicy | null
  onChange: (value: BlockWindowPolicy | null) => void
}) {
  const change = (fields: Partial<BlockWindowPolicy>) => value && onChange({ ...value, ...fields })
  return (
    <Section title="Block window (EntryPoint v0.9)">
      <p className="hint" data-testid="policy-block-window-hint">
        Sign v0.9 sponsorships for a window in block numbers instead of seconds. {BLOCK_WINDOW_VERSIONS_NOTE}.
      </p>
      <label className="check">
        <input
          type="checkbox"
          data-testid="policy-block-window"
          checked={value !== null}
          onChange={(e) => onChange(e.target.checked ? { ...NEW_BLOCK_WINDOW } : null)}
        />{' '}
        Sign v0.9 sponsorships in blocks
      </label>
      {value ? (
        <div className="form-row">
          <label className="field">
            <span>Valid for (blocks from the chain's head)</span>
            <input
              type="number"
              min={MIN_VALID_FOR_BLOCKS}
              step={1}
              data-testid="policy-block-valid-for"
              value={value.validForBlocks}
              onChange={(e) => change({ validForBlocks: Number(e.target.value) })}
            />
          </label>
          <BlockBound
            label="Sponsor after block"
            least={0}
            placeholder="now"
            testId="policy-block-after"
            value={value.validAfterBlock}
            onChange={(validAfterBlock) => change({ validAfterBlock })}
          />
          <BlockBound
            label="Sponsor until block"
            least={1}
            placeholder="no end"
            testId="policy-block-until"
            value={value.validUntilBlock}
            onChange={(validUntilBlock) => change({ validUntilBlock })}
          />
        </div>
      ) : null}
    </Section>
  )
}
