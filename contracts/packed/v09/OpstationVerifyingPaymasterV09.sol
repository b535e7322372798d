// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {PackedUserOperation} from "@account-abstraction/contracts-v08/interfaces/PackedUserOperation.sol";
import {IEntryPointStake} from "../PackedBasePaymaster.sol";
import {PackedBasePaymasterV09} from "./PackedBasePaymasterV09.sol";

/**
 * Opstation's verifying paymaster for EntryPoint v0.9: OpstationVerifyingPaymaster's gas tanks, with the service's
 * signature in v0.9's paymasterSignature (after paymasterData, left out of the userOpHash), so the account and the
 * paymaster sign in parallel. As for v0.7 and v0.8, with per-dApp gas tanks as Biconomy's
 * VerifyingSingletonPaymaster keeps them for v0.6: each dApp's `paymasterId` has a balance here (deposited with
 * `depositFor`, forwarded to this paymaster's EntryPoint deposit), an operation is sponsored only when the
 * service's signer signed it for that paymasterId and the tank holds its maximum cost, and postOp charges the
 * tank what the operation cost.
 *
 * paymasterData = paymasterId (20) | validUntil (6) | validAfter (6), then the signature (65): as v0.9's paymasterSignature
 * (| its length (2) | PAYMASTER_SIG_MAGIC (8)), or ending paymasterData as for v0.7 and v0.8.
 */
contract OpstationVerifyingPaymasterV09 is PackedBasePaymasterV09 {
    uint256 private constant PAYMASTER_ID_OFFSET = PAYMASTER_DATA_OFFSET;
    uint256 private constant VALID_UNTIL_OFFSET = PAYMASTER_ID_OFFSET + 20;
    uint256 private constant VALID_AFTER_OFFSET = VALID_UNTIL_OFFSET + 6;
    uint256 private constant SIGNATURE_OFFSET = VALID_AFTER_OFFSET + 6;
    /// Gas of the EntryPoint's and postOp's own work after `actualGasCost` was measured, charged on top of it.
    uint256 public constant POST_OP_OVERHEAD = 15000;

    mapping(address paymasterId => uint256) public paymasterIdBalances;

    event GasTankDeposited(address indexed paymasterId, uint256 amount);
    event GasTankWithdrawn(address indexed paymasterId, address indexed to, uint256 amount);
    event GasTankCharged(address indexed paymasterId, address indexed sender, uint256 charge);

    error InvalidPaymasterDataLength(uint256 length);
    error InsufficientGasTank(address paymasterId, uint256 required, uint256 balance);
    error ZeroAmount();

    constructor(address entryPoint_, address owner_, address verifyingSigner_)
        PackedBasePaymasterV09(entryPoint_, owner_, verifyingSigner_)
    {}

    /// Adds the ETH sent to `paymasterId`'s gas tank.
    function depositFor(address paymasterId) external payable {
        if (paymasterId == address(0)) revert ZeroAddress();
        if (msg.value == 0) revert ZeroAmount();
        paymasterIdBalances[paymasterId] += msg.value;
        IEntryPointStake(entryPoint).depositTo{value: msg.value}(address(this));
        emit GasTankDeposited(paymasterId, msg.value);
    }

    /// The caller (a paymasterId) takes `amount` out of its own gas tank.
    function withdrawTo(address payable to, uint256 amount) external {
        if (to == address(0)) revert ZeroAddress();
        uint256 balance = paymasterIdBalances[msg.sender];
        if (balance < amount) revert InsufficientGasTank(msg.sender, amount, balance);
        paymasterIdBalances[msg.sender] = balance - amount;
        IEntryPointStake(entryPoint).withdrawTo(to, amount);
        emit GasTankWithdrawn(msg.sender, to, amount);
    }

    function getBalance(address paymasterId) external view returns (uint256) {
        return paymasterIdBalances[paymasterId];
    }

    /// What the service signs (EIP-191) for an operation: everything but its signatures and paymasterData.
    function getHash(PackedUserOperation calldata userOp, address paymasterId, uint48 validUntil, uint48 validAfter)
        public
        view
        returns (bytes32)
    {
        return keccak256(abi.encode(_hashOperation(userOp), paymasterId, validUntil, validAfter));
    }

    function parsePaymasterAndData(bytes calldata paymasterAndData)
        public
        pure
        returns (address paymasterId, uint48 validUntil, uint48 validAfter, bytes calldata signature)
    {
        if (paymasterAndData.length < SIGNATURE_OFFSET) revert InvalidPaymasterDataLength(paymasterAndData.length);
        paymasterId = address(bytes20(paymasterAndData[PAYMASTER_ID_OFFSET:VALID_UNTIL_OFFSET]));
        validUntil = uint48(bytes6(paymasterAndData[VALID_UNTIL_OFFSET:VALID_AFTER_OFFSET]));
        validAfter = uint48(bytes6(paymasterAndData[VALID_AFTER_OFFSET:SIGNATURE_OFFSET]));
        signature = _paymasterSignatureOf(paymasterAndData, SIGNATURE_OFFSET);
    }

    function _validatePaymasterUserOp(PackedUserOperation calldata userOp, bytes32, uint256 maxCost)
        internal
        view
        override
        returns (bytes memory context, uint256 validationData)
    {
        (address paymasterId, uint48 validUntil, uint48 validAfter, bytes calldata signature) =
            parsePaymasterAndData(userOp.paymasterAndData);
        bool signed = _isSignedBySigner(getHash(userOp, paymasterId, validUntil, validAfter), signature);
        // The tank is read either way, so an estimate with stub data costs what the signed operation will; only a
        // signed operation is held to it (an unsigned one cannot be included, and its estimate uses trial limits).
        uint256 balance = paymasterIdBalances[paymasterId];
        if (signed && balance < maxCost) revert InsufficientGasTank(paymasterId, maxCost, balance);
        context = abi.encode(paymasterId, userOp.sender);
        validationData = _packValidationData(!signed, validUntil, validAfter);
    }

    function _postOp(PostOpMode, bytes calldata context, uint256 actualGasCost, uint256 actualUserOpFeePerGas)
        internal
        override
    {
        (address paymasterId, address sender) = abi.decode(context, (address, address));
        uint256 charge = actualGasCost + POST_OP_OVERHEAD * actualUserOpFeePerGas;
        uint256 balance = paymasterIdBalances[paymasterId];
        paymasterIdBalances[paymasterId] = balance > charge ? balance - charge : 0;
        emit GasTankCharged(paymasterId, sender, charge);
    }
}
