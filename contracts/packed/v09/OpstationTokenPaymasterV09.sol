// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {PackedUserOperation} from "@account-abstraction/contracts-v08/interfaces/PackedUserOperation.sol";
import {IEntryPointStake} from "../PackedBasePaymaster.sol";
import {IERC20Minimal} from "../OpstationTokenPaymaster.sol";
import {PackedBasePaymasterV09} from "./PackedBasePaymasterV09.sol";

/**
 * Opstation's token paymaster (ERC20 mode) for EntryPoint v0.9: OpstationTokenPaymaster with the service's
 * signature in v0.9's paymasterSignature (left out of the userOpHash: account and paymaster sign in parallel). The
 * paymaster pays the gas from its own EntryPoint deposit and postOp takes the cost from the account in the fee
 * token, at the exchange rate and markup the service signed. The account must hold the maximum token cost at validation and have approved this
 * paymaster by postOp (usually an approve call in the same operation).
 *
 * paymasterData = validUntil (6) | validAfter (6) | feeToken (20) | exchangeRate (32, token base units per 1e18
 * wei) | priceMarkup (4, 1e6 = no markup), then the signature (65): as v0.9's
 * paymasterSignature (| its length (2) | PAYMASTER_SIG_MAGIC (8)), or ending paymasterData as for v0.7 and v0.8.
 */
contract OpstationTokenPaymasterV09 is PackedBasePaymasterV09 {
    uint256 private constant VALID_UNTIL_OFFSET = PAYMASTER_DATA_OFFSET;
    uint256 private constant VALID_AFTER_OFFSET = VALID_UNTIL_OFFSET + 6;
    uint256 private constant FEE_TOKEN_OFFSET = VALID_AFTER_OFFSET + 6;
    uint256 private constant EXCHANGE_RATE_OFFSET = FEE_TOKEN_OFFSET + 20;
    uint256 private constant PRICE_MARKUP_OFFSET = EXCHANGE_RATE_OFFSET + 32;
    uint256 private constant SIGNATURE_OFFSET = PRICE_MARKUP_OFFSET + 4;
    /// Gas of postOp's token transfer and the EntryPoint's work after `actualGasCost` was measured.
    uint256 public constant UNACCOUNTED_COST = 45000;
    uint32 public constant PRICE_DENOMINATOR = 1e6;
    uint32 public constant MAX_PRICE_MARKUP = 2e6;

    event TokenPaymasterOperation(
        address indexed sender,
        address indexed token,
        uint256 indexed totalCharge,
        uint32 priceMarkup,
        bytes32 userOpHash,
        uint256 exchangeRate
    );
    event TokensWithdrawn(address indexed token, address indexed to, uint256 amount);

    error InvalidPaymasterDataLength(uint256 length);
    error InvalidPriceMarkup(uint32 priceMarkup);
    error InsufficientTokenBalance(uint256 required, uint256 balance);
    error TokenTransferFailed(address token, address from, uint256 amount);

    struct TokenFields {
        uint48 validUntil;
        uint48 validAfter;
        address feeToken;
        uint256 exchangeRate;
        uint32 priceMarkup;
    }

    constructor(address entryPoint_, address owner_, address verifyingSigner_)
        PackedBasePaymasterV09(entryPoint_, owner_, verifyingSigner_)
    {}

    /// Adds the ETH sent to this paymaster's EntryPoint deposit (it pays every operation's gas).
    function deposit() external payable {
        IEntryPointStake(entryPoint).depositTo{value: msg.value}(address(this));
    }

    function withdrawTo(address payable to, uint256 amount) external onlyOwner {
        if (to == address(0)) revert ZeroAddress();
        IEntryPointStake(entryPoint).withdrawTo(to, amount);
    }

    function withdrawERC20(address token, address to, uint256 amount) external onlyOwner {
        if (to == address(0)) revert ZeroAddress();
        if (!IERC20Minimal(token).transfer(to, amount)) revert TokenTransferFailed(token, address(this), amount);
        emit TokensWithdrawn(token, to, amount);
    }

    /// What the service signs (EIP-191) for an operation: everything but its signature and paymasterData.
    function getHash(PackedUserOperation calldata userOp, TokenFields memory fields) public view returns (bytes32) {
        return keccak256(
            abi.encode(
                _hashOperation(userOp),
                fields.validUntil,
                fields.validAfter,
                fields.feeToken,
                fields.exchangeRate,
                fields.priceMarkup
            )
        );
    }

    function parsePaymasterAndData(bytes calldata paymasterAndData)
        public
        pure
        returns (TokenFields memory fields, bytes calldata signature)
    {
        if (paymasterAndData.length < SIGNATURE_OFFSET) revert InvalidPaymasterDataLength(paymasterAndData.length);
        fields.validUntil = uint48(bytes6(paymasterAndData[VALID_UNTIL_OFFSET:VALID_AFTER_OFFSET]));
        fields.validAfter = uint48(bytes6(paymasterAndData[VALID_AFTER_OFFSET:FEE_TOKEN_OFFSET]));
        fields.feeToken = address(bytes20(paymasterAndData[FEE_TOKEN_OFFSET:EXCHANGE_RATE_OFFSET]));
        fields.exchangeRate = uint256(bytes32(paymasterAndData[EXCHANGE_RATE_OFFSET:PRICE_MARKUP_OFFSET]));
        fields.priceMarkup = uint32(bytes4(paymasterAndData[PRICE_MARKUP_OFFSET:SIGNATURE_OFFSET]));
        signature = _paymasterSignatureOf(paymasterAndData, SIGNATURE_OFFSET);
    }

    /// The token amount for `gasCost` wei at the signed rate and markup.
    function _toTokenAmount(uint256 gasCost, uint256 exchangeRate, uint32 priceMarkup) private pure returns (uint256) {
        return ((gasCost * exchangeRate) / 1e18) * priceMarkup / PRICE_DENOMINATOR;
    }

    function _validatePaymasterUserOp(PackedUserOperation calldata userOp, bytes32 userOpHash, uint256 maxCost)
        internal
        view
        override
        returns (bytes memory context, uint256 validationData)
    {
        (TokenFields memory fields, bytes calldata signature) = parsePaymasterAndData(userOp.paymasterAndData);
        if (fields.priceMarkup > MAX_PRICE_MARKUP || fields.priceMarkup < PRICE_DENOMINATOR) {
            revert InvalidPriceMarkup(fields.priceMarkup);
        }
        bool signed = _isSignedBySigner(getHash(userOp, fields), signature);
        // The balance is read either way, so an estimate with stub data costs what the signed operation will; only
        // a signed operation is held to it (an unsigned one cannot be included, and its estimate uses trial limits).
        uint256 maxFeePerGas = uint128(uint256(userOp.gasFees));
        uint256 maxTokenCost =
            _toTokenAmount(maxCost + UNACCOUNTED_COST * maxFeePerGas, fields.exchangeRate, fields.priceMarkup);
        uint256 balance = IERC20Minimal(fields.feeToken).balanceOf(userOp.sender);
        if (signed && balance < maxTokenCost) revert InsufficientTokenBalance(maxTokenCost, balance);
        context = abi.encode(userOp.sender, fields.feeToken, fields.exchangeRate, fields.priceMarkup, userOpHash);
        validationData = _packValidationData(!signed, fields.validUntil, fields.validAfter);
    }

    function _postOp(PostOpMode, bytes calldata context, uint256 actualGasCost, uint256 actualUserOpFeePerGas)
        internal
        override
    {
        (address sender, address feeToken, uint256 exchangeRate, uint32 priceMarkup, bytes32 userOpHash) =
            abi.decode(context, (address, address, uint256, uint32, bytes32));
        uint256 charge =
            _toTokenAmount(actualGasCost + UNACCOUNTED_COST * actualUserOpFeePerGas, exchangeRate, priceMarkup);
        // A failed payment reverts postOp: the EntryPoint then reverts the operation's call (the paymaster still
        // pays its gas), so nothing runs unpaid.
        (bool ok, bytes memory ret) =
            feeToken.call(abi.encodeCall(IERC20Minimal.transferFrom, (sender, address(this), charge)));
        if (!ok || (ret.length != 0 && !abi.decode(ret, (bool)))) revert TokenTransferFailed(feeToken, sender, charge);
        emit TokenPaymasterOperation(sender, feeToken, charge, priceMarkup, userOpHash, exchangeRate);
    }
}
