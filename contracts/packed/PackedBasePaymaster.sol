// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IPaymaster} from "@account-abstraction/contracts-v08/interfaces/IPaymaster.sol";
import {PackedUserOperation} from "@account-abstraction/contracts-v08/interfaces/PackedUserOperation.sol";

/// The EntryPoint's stake and deposit functions (the same in v0.7 and v0.8).
interface IEntryPointStake {
    function depositTo(address account) external payable;
    function addStake(uint32 unstakeDelaySec) external payable;
    function unlockStake() external;
    function withdrawStake(address payable withdrawAddress) external;
    function withdrawTo(address payable withdrawAddress, uint256 withdrawAmount) external;
    function balanceOf(address account) external view returns (uint256);
}

/**
 * Opstation's base for paymasters of the EntryPoints that take PackedUserOperation (v0.7 and v0.8, whose
 * IPaymaster and PackedUserOperation are identical): one bytecode serves either, the EntryPoint being a
 * constructor argument. Owner-managed stake, a verifying signer, and the checks every paymaster needs.
 * paymasterAndData = paymaster (20) | paymasterVerificationGasLimit (16) | paymasterPostOpGasLimit (16) | data.
 */
abstract contract PackedBasePaymaster is IPaymaster {
    uint256 internal constant PAYMASTER_VALIDATION_GAS_OFFSET = 20;
    uint256 internal constant PAYMASTER_DATA_OFFSET = 52;
    /// secp256k1n / 2: larger s values are malleable signatures.
    uint256 private constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    address public immutable entryPoint;
    address public owner;
    address public verifyingSigner;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);
    event VerifyingSignerChanged(address indexed previousSigner, address indexed newSigner);

    error NotEntryPoint(address caller);
    error NotOwner(address caller);
    error ZeroAddress();
    error InvalidSignatureLength(uint256 length);

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _;
    }

    modifier onlyEntryPoint() {
        if (msg.sender != entryPoint) revert NotEntryPoint(msg.sender);
        _;
    }

    constructor(address entryPoint_, address owner_, address verifyingSigner_) {
        if (entryPoint_ == address(0) || owner_ == address(0) || verifyingSigner_ == address(0)) revert ZeroAddress();
        entryPoint = entryPoint_;
        owner = owner_;
        verifyingSigner = verifyingSigner_;
        emit OwnershipTransferred(address(0), owner_);
    }

    function validatePaymasterUserOp(PackedUserOperation calldata userOp, bytes32 userOpHash, uint256 maxCost)
        external
        override
        onlyEntryPoint
        returns (bytes memory context, uint256 validationData)
    {
        return _validatePaymasterUserOp(userOp, userOpHash, maxCost);
    }

    function postOp(PostOpMode mode, bytes calldata context, uint256 actualGasCost, uint256 actualUserOpFeePerGas)
        external
        override
        onlyEntryPoint
    {
        _postOp(mode, context, actualGasCost, actualUserOpFeePerGas);
    }

    function _validatePaymasterUserOp(PackedUserOperation calldata userOp, bytes32 userOpHash, uint256 maxCost)
        internal
        virtual
        returns (bytes memory context, uint256 validationData);

    function _postOp(PostOpMode mode, bytes calldata context, uint256 actualGasCost, uint256 actualUserOpFeePerGas)
        internal
        virtual;

    function addStake(uint32 unstakeDelaySec) external payable onlyOwner {
        IEntryPointStake(entryPoint).addStake{value: msg.value}(unstakeDelaySec);
    }

    function unlockStake() external onlyOwner {
        IEntryPointStake(entryPoint).unlockStake();
    }

    function withdrawStake(address payable withdrawAddress) external onlyOwner {
        IEntryPointStake(entryPoint).withdrawStake(withdrawAddress);
    }

    /// This paymaster's whole deposit on the EntryPoint.
    function getDeposit() external view returns (uint256) {
        return IEntryPointStake(entryPoint).balanceOf(address(this));
    }

    function transferOwnership(address newOwner) external onlyOwner {
        if (newOwner == address(0)) revert ZeroAddress();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function setVerifyingSigner(address newSigner) external onlyOwner {
        if (newSigner == address(0)) revert ZeroAddress();
        emit VerifyingSignerChanged(verifyingSigner, newSigner);
        verifyingSigner = newSigner;
    }

    /// True when `signature` (65 bytes r|s|v) over the EIP-191 message `hash` is the verifying signer's.
    function _isSignedBySigner(bytes32 hash, bytes calldata signature) internal view returns (bool) {
        if (signature.length != 65) revert InvalidSignatureLength(signature.length);
        bytes32 digest = keccak256(abi.encodePacked("\x19Ethereum Signed Message:\n32", hash));
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (uint256(s) > HALF_ORDER || (v != 27 && v != 28)) return false;
        address recovered = ecrecover(digest, v, r, s);
        return recovered != address(0) && recovered == verifyingSigner;
    }

    /// validationData: sigFailed in the low 160 bits, validUntil and validAfter above (ERC-4337).
    function _packValidationData(bool sigFailed, uint48 validUntil, uint48 validAfter)
        internal
        pure
        returns (uint256)
    {
        return (sigFailed ? 1 : 0) | (uint256(validUntil) << 160) | (uint256(validAfter) << 208);
    }

    /// The fields every paymaster hash covers: the operation without its signature and paymasterData, the gas
    /// limits the paymaster pays for, the chain and this paymaster.
    function _hashOperation(PackedUserOperation calldata userOp) internal view returns (bytes memory) {
        return abi.encode(
            userOp.sender,
            userOp.nonce,
            keccak256(userOp.initCode),
            keccak256(userOp.callData),
            userOp.accountGasLimits,
            uint256(bytes32(userOp.paymasterAndData[PAYMASTER_VALIDATION_GAS_OFFSET:PAYMASTER_DATA_OFFSET])),
            userOp.preVerificationGas,
            userOp.gasFees,
            block.chainid,
            address(this)
        );
    }
}
