// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {PackedBasePaymaster} from "../PackedBasePaymaster.sol";

/**
 * The base of Opstation's EntryPoint v0.9 paymasters: PackedBasePaymaster, with the paymaster's signature read where
 * v0.9 lets it be: after paymasterData as paymasterSignature ‖ uint16 length ‖ PAYMASTER_SIG_MAGIC (the EntryPoint
 * leaves it out of the userOpHash, so the account signs before the paymaster does), or, as for v0.7 and v0.8, at the
 * end of paymasterData (covered by the userOpHash: for clients that hash paymasterData whole). v0.7 and v0.8 keep
 * PackedBasePaymaster's paymasters, and their addresses.
 */
abstract contract PackedBasePaymasterV09 is PackedBasePaymaster {
    /// keccak256("PaymasterSignature")[:8], v0.9's UserOperationLib.PAYMASTER_SIG_MAGIC.
    bytes8 internal constant PAYMASTER_SIG_MAGIC = 0x22e325a297439656;
    /// The suffix after a paymasterSignature: its uint16 length and the magic.
    uint256 private constant SUFFIX_LENGTH = 10;

    constructor(address entryPoint_, address owner_, address verifyingSigner_)
        PackedBasePaymaster(entryPoint_, owner_, verifyingSigner_)
    {}

    /**
     * The paymaster's signature in paymasterAndData whose fields end at `dataEnd`: the paymasterSignature when it
     * ends with the magic suffix and that suffix names exactly the bytes after the fields, else the bytes after the
     * fields.
     */
    function _paymasterSignatureOf(bytes calldata paymasterAndData, uint256 dataEnd)
        internal
        pure
        returns (bytes calldata signature)
    {
        uint256 length = paymasterAndData.length;
        if (
            length >= dataEnd + SUFFIX_LENGTH && bytes8(paymasterAndData[length - 8:length]) == PAYMASTER_SIG_MAGIC
                && uint16(bytes2(paymasterAndData[length - SUFFIX_LENGTH:length - 8])) == length - SUFFIX_LENGTH - dataEnd
        ) return paymasterAndData[dataEnd:length - SUFFIX_LENGTH];
        return paymasterAndData[dataEnd:];
    }
}
